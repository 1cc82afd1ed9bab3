// The search page's record screens: a record's detail, its editor (add and edit), and
// deleting it with a confirmation. Loaded before app.js, whose `api`, `search` and
// `showProblem` these call when the user acts.
"use strict";

const searchable = { people: ["first_name", "last_name", "company"], animals: ["name"] };
const labels = { first_name: "First name", last_name: "Last name", company: "Company", name: "Name" };

function displayName(record) {
  const f = record.fields;
  return record.kind === "people" ? [f.first_name, f.last_name].filter(Boolean).join(" ") : f.name;
}

async function openDetail(kind, id) {
  const dialog = $("detail");
  $("detail-problem").hidden = true;
  $("detail-confirm").hidden = true;
  let record;
  try {
    record = await api("GET", `/api/${kind}/${id}`);
  } catch (error) {
    showProblem(problem, error);
    return;
  }
  $("detail-title").textContent = displayName(record);
  const rows = [];
  const add = (name, value) => {
    const term = document.createElement("dt");
    term.textContent = labels[name] || name;
    const description = document.createElement("dd");
    description.textContent = typeof value === "string" ? value : JSON.stringify(value);
    rows.push(term, description);
  };
  add("id", record.id);
  for (const [name, value] of Object.entries(record.fields)) add(name, value);
  add("created", record.created_at);
  add("updated", record.updated_at);
  $("detail-fields").replaceChildren(...rows);
  $("detail-edit").onclick = () => { dialog.close(); openEditor(record.kind, record); };
  $("detail-delete").onclick = () => {
    $("detail-confirm-text").textContent = `Delete ${displayName(record)}? This cannot be undone.`;
    $("detail-confirm").hidden = false;
    $("detail-confirm-cancel").focus();
  };
  $("detail-confirm-cancel").onclick = () => { $("detail-confirm").hidden = true; $("detail-delete").focus(); };
  $("detail-confirm-delete").onclick = async () => {
    try {
      await api("DELETE", `/api/${record.kind}/${record.id}`);
      dialog.close();
      search();
    } catch (error) {
      showProblem($("detail-problem"), error);
    }
  };
  if (!dialog.open) dialog.showModal();
  $("detail-close").focus();
}

function openEditor(kind, record) {
  const dialog = $("editor");
  const noun = kind === "people" ? "person" : "animal";
  $("editor-title").textContent = record ? "Edit " + displayName(record) : "Add " + (kind === "people" ? "a person" : "an animal");
  $("editor-problem").hidden = true;
  const inputs = searchable[kind].map((name) => {
    const label = document.createElement("label");
    label.className = "block";
    label.textContent = labels[name];
    const field = document.createElement("input");
    field.name = name;
    field.id = "editor-" + name;
    field.value = record ? record.fields[name] || "" : "";
    label.append(field);
    return label;
  });
  $("editor-fields").replaceChildren(...inputs);
  const extra = {};
  if (record) {
    for (const [name, value] of Object.entries(record.fields)) {
      if (!searchable[kind].includes(name)) extra[name] = value;
    }
  }
  $("editor-extra").value = Object.keys(extra).length ? JSON.stringify(extra, null, 1) : "";
  $("editor-save").textContent = record ? "Save" : "Add " + noun;
  $("editor-cancel").onclick = () => dialog.close();
  $("editor-form").onsubmit = async (event) => {
    event.preventDefault();
    const fields = {};
    for (const name of searchable[kind]) fields[name] = $("editor-" + name).value;
    let more = {};
    const extraText = $("editor-extra").value.trim();
    if (extraText) {
      try {
        more = JSON.parse(extraText);
        if (typeof more !== "object" || more === null || Array.isArray(more)) throw new Error();
      } catch {
        showProblem($("editor-problem"), new Error("More fields must be a JSON object, such as {\"age\": 42}"));
        return;
      }
    }
    Object.assign(fields, more);
    if (record) {
      for (const name of Object.keys(extra)) if (!(name in more)) fields[name] = null;
    }
    try {
      const saved = record
        ? await api("PATCH", `/api/${kind}/${record.id}`, fields)
        : await api("POST", `/api/${kind}`, fields);
      dialog.close();
      search();
      openDetail(saved.kind, saved.id);
    } catch (error) {
      showProblem($("editor-problem"), error);
    }
  };
  dialog.showModal();
  $("editor-" + searchable[kind][0]).focus();
}
