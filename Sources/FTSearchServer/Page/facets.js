// The facet panel of the search page: beside the results, the values of `company`, of the
// kind, and of the extra fields with few distinct values, each with how many matches hold
// it (counted by the API over every match, not only the page). Pressing a value filters by
// it (values of one field are alternatives, fields add up); each filter in use is a chip that
// removes it. The choices live in the URL (`f=company:Annex Ltd`, one per value), so back and
// forward restore them. app.js owns the search; this file turns choices into the API's
// `filter` and `facets` parameters and draws the panel and the chips.
"use strict";

const facets = (() => {
  const panel = document.getElementById("facet-groups");
  const chips = document.getElementById("chips");
  // Fields that name or date one record: never worth a facet.
  const unique = new Set(["id", "first_name", "last_name", "name", "created_at", "updated_at"]);
  const few = 10; // an extra field with more values than this gets no group
  const shownValues = 12; // the values a group shows
  const chosen = new Map(); // field -> Set of values, in the order they were chosen
  let extraFields = []; // the extra fields seen in results, asked for as facets
  let onChange = () => {};

  /// `company = "Annex Ltd" AND tags IN ["vip", "founder"]`, or undefined with no choice.
  function filter() {
    const parts = [];
    for (const [field, values] of chosen) {
      const list = [...values].map(literal);
      if (list.length === 1) parts.push(`${field} = ${list[0]}`);
      else if (list.length > 1) parts.push(`${field} IN [${list.join(", ")}]`);
    }
    return parts.length ? parts.join(" AND ") : undefined;
  }

  /// A value as the filter language reads it: numbers bare, text double-quoted.
  function literal(value) {
    if (/^-?\d+(\.\d+)?$/.test(value)) return value;
    return '"' + value.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
  }

  /// The fields to count: company, the extra fields seen so far, and every chosen field.
  function fields() {
    const all = ["company", ...extraFields, ...chosen.keys()];
    return [...new Set(all)].join(",");
  }

  /// Remembers the extra fields of `hits`, for the next search's `facets`; whether there
  /// was a new one.
  function learnFields(hits) {
    const known = extraFields.length;
    const seen = new Set(extraFields);
    for (const hit of hits) {
      for (const [name, value] of Object.entries(hit.fields)) {
        if (unique.has(name) || seen.has(name) || value === null) continue;
        if (typeof value === "object" && !Array.isArray(value)) continue;
        seen.add(name);
        extraFields.push(name);
      }
    }
    return extraFields.length > known;
  }

  function toggle(field, value) {
    const values = chosen.get(field) || new Set();
    if (values.has(value)) values.delete(value); else values.add(value);
    if (values.size) chosen.set(field, values); else chosen.delete(field);
    drawChips();
    onChange();
  }

  /// Draws the panel from each kind's answer (`perKind`: `{people, animals}`, each with
  /// `total` and `facets`): a Kind group that sets `kindSelect` (none when it is null, as
  /// with sections by company), then the values counted over the kinds `shown`; and the chips.
  function draw(perKind, shown, kindSelect) {
    const groups = [];
    if (!perKind) { drawChips(); return; }
    if (kindSelect) {
      const kinds = Object.entries(perKind).map(([kind, answer]) => [kind, answer.total]);
      groups.push(group("kind", "Kind", kinds, (value) => kindSelect.value === value,
        (value) => {
          kindSelect.value = kindSelect.value === value ? "all" : value;
          kindSelect.dispatchEvent(new Event("change"));
        }));
    }
    const counted = {};
    for (const kind of shown) {
      for (const [field, values] of Object.entries(perKind[kind].facets || {})) {
        counted[field] = counted[field] || {};
        for (const [value, count] of Object.entries(values)) {
          counted[field][value] = (counted[field][value] || 0) + count;
        }
      }
    }
    for (const field of ["company", ...extraFields, ...chosen.keys()]) {
      if (groups.some((g) => g.dataset.field === field)) continue;
      const all = Object.entries(counted[field] || {})
        .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
      const picked = chosen.get(field) || new Set();
      const shared = all.some(([, count]) => count > 1);
      if (field !== "company" && picked.size === 0 && (all.length > few || !shared)) continue;
      // The most frequent values, and every chosen one.
      const values = all.filter(([value], index) => index < shownValues || picked.has(value));
      for (const value of picked) if (!(value in (counted[field] || {}))) values.push([value, 0]);
      if (values.length === 0) continue;
      groups.push(group(field, field === "company" ? "Company" : field, values,
        (value) => picked.has(value), (value) => toggle(field, value)));
    }
    // A value pressed from the keyboard keeps the focus once the panel is drawn again.
    const focused = document.activeElement;
    const place = panel.contains(focused) ? focused.dataset : null;
    panel.replaceChildren(...groups);
    if (place) {
      panel.querySelector(`.facet-value[data-field="${CSS.escape(place.field)}"]`
        + `[data-value="${CSS.escape(place.value)}"]`)?.focus();
    }
    drawChips();
  }

  function group(field, title, values, isPressed, press) {
    const section = document.createElement("section");
    section.className = "facet";
    section.dataset.field = field;
    const heading = document.createElement("h3");
    heading.id = "facet-" + field.replace(/[^\w-]/g, "_");
    heading.textContent = title;
    section.setAttribute("aria-labelledby", heading.id);
    const list = document.createElement("ul");
    for (const [value, count] of values) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "facet-value";
      button.dataset.field = field;
      button.dataset.value = value;
      button.setAttribute("aria-pressed", String(isPressed(value)));
      button.setAttribute("aria-label", `${value}, ${count} ${count === 1 ? "result" : "results"}`);
      const label = document.createElement("span");
      label.className = "value";
      label.textContent = value;
      const number = document.createElement("span");
      number.className = "count";
      number.textContent = count.toLocaleString();
      button.append(label, number);
      button.addEventListener("click", () => press(value));
      const item = document.createElement("li");
      item.append(button);
      list.append(item);
    }
    section.append(heading, list);
    return section;
  }

  function drawChips() {
    const items = [];
    for (const [field, values] of chosen) {
      for (const value of values) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "chip";
        button.dataset.field = field;
        button.dataset.value = value;
        button.setAttribute("aria-label", `Remove filter ${field}: ${value}`);
        const mark = document.createElement("span");
        mark.setAttribute("aria-hidden", "true");
        mark.textContent = "×";
        button.append(`${field}: ${value} `, mark);
        button.addEventListener("click", () => {
          // The focus goes to the next chip, or back to the search field.
          const next = button.parentElement.nextElementSibling || button.parentElement.previousElementSibling;
          const place = next ? next.firstElementChild.dataset : null;
          toggle(field, value);
          const target = place && chips.querySelector(
            `.chip[data-field="${CSS.escape(place.field)}"][data-value="${CSS.escape(place.value)}"]`);
          (target || document.getElementById("q")).focus();
        });
        const item = document.createElement("li");
        item.append(button);
        items.push(item);
      }
    }
    chips.replaceChildren(...items);
    chips.hidden = items.length === 0;
  }

  /// The URL's share: `f=field:value` for each choice.
  function writeURL(parameters) {
    for (const [field, values] of chosen) {
      for (const value of values) parameters.append("f", field + ":" + value);
    }
  }

  function readURL(parameters) {
    chosen.clear();
    for (const entry of parameters.getAll("f")) {
      const at = entry.indexOf(":");
      if (at <= 0) continue;
      const field = entry.slice(0, at);
      if (!chosen.has(field)) chosen.set(field, new Set());
      chosen.get(field).add(entry.slice(at + 1));
    }
  }

  return {
    filter, fields, learnFields, draw, writeURL, readURL,
    set onChange(action) { onChange = action; },
  };
})();
