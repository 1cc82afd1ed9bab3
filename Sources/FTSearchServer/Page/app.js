// The search page of `ftsearch serve`: the seeds' screens (the person list with sections by
// company, the search bar with its history, the record's detail and editor) over the JSON API.
// Plain JavaScript, no build step, nothing fetched but this server's own API.
"use strict";

const $ = (id) => document.getElementById(id);
const input = $("q");
const choices = $("choices");
const matchSelect = $("match");
const kindSelect = $("kind");
const sortSelect = $("sort");
const sectionsBox = $("sections");
const statusLine = $("status");
const correction = $("correction");
const resultsBox = $("results");
const moreButton = $("more");
const problem = $("problem");
const pageSize = 20;

const state = {
  generation: 0, // the newest search asked for; older answers are never drawn
  controller: null,
  hits: [],
  total: 0,
  text: "",
  shown: "", // the text whose results are shown (the correction, when one is)
  literal: false, // "search instead for": no correction for this text
  choiceGeneration: 0,
  activeChoice: -1,
  committed: true, // the URL entry holds a finished search; the next keystroke starts another
};

// MARK: The API

async function api(method, path, body) {
  const headers = {};
  const key = sessionStorage.getItem("ftsearch-key");
  if (key && method !== "GET") headers["Authorization"] = "Bearer " + key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    signal: method === "GET" && path.startsWith("/api/search") ? state.controller?.signal : undefined,
  });
  const answer = response.status === 204 ? {} : await response.json();
  if ((response.status === 401 || response.status === 403) && method !== "GET") {
    if (await askForKey()) return api(method, path, body);
  }
  if (!response.ok) {
    const error = new Error(answer.error ? answer.error.message : response.statusText);
    error.status = response.status;
    throw error;
  }
  return answer;
}

function askForKey() {
  const dialog = $("key");
  return new Promise((resolve) => {
    const finish = (ok) => {
      $("key-form").onsubmit = null;
      $("key-cancel").onclick = null;
      dialog.close();
      resolve(ok);
    };
    $("key-form").onsubmit = (event) => {
      event.preventDefault();
      sessionStorage.setItem("ftsearch-key", $("key-value").value);
      finish(true);
    };
    $("key-cancel").onclick = () => finish(false);
    dialog.showModal();
  });
}

function query(parameters) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null) search.set(name, value);
  }
  return search.toString();
}

// MARK: Searching

function searchParameters(text, offset) {
  const grouped = sectionsBox.checked;
  return {
    q: text, match: matchSelect.value, limit: pageSize, offset,
    kind: grouped ? undefined : kindSelect.value,
    group_by: grouped ? "company" : undefined,
    filter: facets.filter(), sort: sortSelect.value || undefined,
  };
}

/// The facet panel's counts: each kind's matches and their values (asked apart from the
/// page of results, which keeps its own answer: a did-you-mean, the sections).
async function facetCounts(text) {
  const count = (kind) => api("GET", "/api/search?" + query({
    ...searchParameters(text, 0), kind, group_by: undefined, limit: 0, sort: undefined,
    facets: facets.fields() }));
  const [people, animals] = await Promise.all([count("people"), count("animals")]);
  return { people, animals };
}

async function search({ append = false } = {}) {
  const text = input.value;
  const generation = ++state.generation;
  state.controller?.abort();
  state.controller = new AbortController();
  problem.hidden = true;
  try {
    const offset = append ? state.hits.length : 0;
    let answer = await api("GET", "/api/search?" + query(searchParameters(text, offset)));
    let shown = text;
    if (!append && answer.total === 0 && answer.did_you_mean && !state.literal
        && matchSelect.value === "prefix") {
      const corrected = await api("GET", "/api/search?" + query(searchParameters(answer.did_you_mean, 0)));
      if (corrected.total > 0) {
        answer = corrected;
        shown = answer.query;
      }
    }
    if (generation !== state.generation) return; // a newer search was asked for meanwhile
    state.text = text;
    state.shown = shown;
    state.total = answer.total;
    state.hits = append ? state.hits.concat(answer.results) : answer.results;
    draw();
    if (!append) {
      const shown = sectionsBox.checked ? ["people"]
        : kindSelect.value === "all" ? ["people", "animals"] : [kindSelect.value];
      // Counted once the results are drawn: asked beside them, the counts of every match
      // shared the server's cores with the page of results and slowed each keystroke.
      const perKind = await facetCounts(text).catch(() => null);
      if (generation !== state.generation) return; // the panel too is never drawn stale
      facets.draw(perKind, shown, sectionsBox.checked ? null : kindSelect);
      // Extra fields first seen in these results are counted by the next search.
      if (facets.learnFields(answer.results)) search();
    }
  } catch (error) {
    if (error.name === "AbortError" || generation !== state.generation) return;
    showProblem(problem, error);
  }
}

function draw() {
  const count = state.total;
  statusLine.textContent = count === 1 ? "1 result" : count.toLocaleString() + " results";
  if (state.shown !== state.text) {
    correction.replaceChildren(
      "Showing results for ", strong(state.shown), " — search instead for ",
      link(state.text, () => { state.literal = true; search(); }));
    correction.hidden = false;
  } else {
    correction.hidden = true;
  }
  const hits = sectionsBox.checked ? sortedByCompany(state.hits) : state.hits;
  const parts = [];
  let list = null;
  let section = null;
  for (const hit of hits) {
    const company = hit.kind === "people" ? (hit.fields.company || "") : null;
    if (sectionsBox.checked && company !== section || list === null) {
      section = company;
      if (sectionsBox.checked) {
        const heading = document.createElement("h3");
        heading.textContent = company || "(no company)";
        parts.push(heading);
      }
      list = document.createElement("ul");
      parts.push(list);
    }
    const item = document.createElement("li");
    item.append(resultButton(hit));
    list.append(item);
  }
  // Results drawn again (Enter searches once more) keep a keyboard user's place: the result
  // that had the focus has it again, or a key pressed on it would go to a detached button.
  const focused = document.activeElement;
  const place = resultsBox.contains(focused) && focused.classList.contains("result")
    ? `.result[data-kind="${CSS.escape(focused.dataset.kind)}"][data-id="${CSS.escape(focused.dataset.id)}"]`
    : null;
  resultsBox.replaceChildren(...parts);
  if (place) resultsBox.querySelector(place)?.focus();
  moreButton.hidden = state.hits.length >= state.total;
}

function sortedByCompany(hits) {
  // As the library orders sections: companies ignoring case, none last, rank order within.
  return hits.map((hit, index) => ({ hit, index })).sort((a, b) => {
    const x = a.hit.fields.company || "", y = b.hit.fields.company || "";
    if ((x === "") !== (y === "")) return x === "" ? 1 : -1;
    const fx = x.toLowerCase(), fy = y.toLowerCase();
    return fx !== fy ? (fx < fy ? -1 : 1) : a.index - b.index;
  }).map((entry) => entry.hit);
}

function resultButton(hit) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "result";
  button.dataset.kind = hit.kind;
  button.dataset.id = hit.id;
  const name = document.createElement("span");
  name.className = "name";
  const fields = hit.kind === "people" ? ["first_name", "last_name"] : ["name"];
  fields.forEach((field, index) => {
    if (index > 0 && hit.fields[field]) name.append(" ");
    name.append(highlighted(hit.fields[field] || "", hit.matches[field]));
  });
  button.append(name);
  if (hit.kind === "animals") {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = hit.fields.species ? String(hit.fields.species) : "animal";
    button.append(badge);
  } else if (!sectionsBox.checked) {
    const company = document.createElement("span");
    company.className = "company";
    company.append(highlighted(hit.fields.company || "", hit.matches.company));
    button.append(company);
  }
  button.addEventListener("click", () => {
    logSearch();
    openDetail(hit.kind, hit.id);
  });
  return button;
}

/// Text with its matched ranges (UTF-16 offsets, as the API gives them) in <mark>.
function highlighted(text, ranges) {
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const [start, end] of ranges || []) {
    if (start > at) fragment.append(text.slice(at, start));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(start, end);
    fragment.append(mark);
    at = end;
  }
  fragment.append(text.slice(at));
  return fragment;
}

function strong(text) {
  const element = document.createElement("strong");
  element.textContent = text;
  return element;
}

function link(text, action) {
  const element = document.createElement("a");
  element.href = "?" + query({ q: text, match: matchSelect.value });
  element.textContent = text;
  element.addEventListener("click", (event) => { event.preventDefault(); action(); });
  return element;
}

function showProblem(element, error) {
  element.textContent = error.message || String(error);
  element.hidden = false;
}

function logSearch() {
  const text = input.value.trim();
  if (text) api("POST", "/api/history", { text, kind: kindSelect.value }).catch(() => {});
}

// MARK: The URL

function writeURL({ push }) {
  const parameters = new URLSearchParams();
  if (input.value) parameters.set("q", input.value);
  if (matchSelect.value !== "prefix") parameters.set("match", matchSelect.value);
  if (sortSelect.value) parameters.set("sort", sortSelect.value);
  facets.writeURL(parameters);
  const text = parameters.toString();
  const url = location.pathname + (text ? "?" + text : "");
  if (url === location.pathname + location.search) return;
  if (push) history.pushState(null, "", url); else history.replaceState(null, "", url);
}

function readURL() {
  const parameters = new URLSearchParams(location.search);
  input.value = parameters.get("q") || "";
  const match = parameters.get("match");
  matchSelect.value = ["prefix", "substring", "fuzzy", "exact"].includes(match) ? match : "prefix";
  const sort = parameters.get("sort") || "";
  sortSelect.value = [...sortSelect.options].some((option) => option.value === sort) ? sort : "";
  facets.readURL(parameters);
  state.literal = false;
  state.committed = true;
}

// MARK: History and suggestions (the combobox's listbox)

async function showChoices() {
  const generation = ++state.choiceGeneration;
  const text = input.value;
  try {
    let options;
    if (text.trim() === "") {
      const answer = await api("GET", "/api/history?limit=10");
      options = answer.entries.map((entry) => ({ text: entry.text, id: entry.id, history: true }));
    } else {
      const answer = await api("GET", "/api/suggest?" + query({ q: text, limit: 8 }));
      options = answer.suggestions.filter((s) => s.text !== text.toLowerCase())
        .map((s) => ({ text: s.text, history: s.source === "history" }));
    }
    if (generation !== state.choiceGeneration) return;
    drawChoices(options, text.trim() === "");
    // The text the list answers, for whoever waits for the list of what was typed last.
    choices.dataset.answers = text;
  } catch (error) {
    closeChoices();
  }
}

function drawChoices(options, isHistory) {
  state.activeChoice = -1;
  input.removeAttribute("aria-activedescendant");
  const items = options.map((option, index) => {
    const item = document.createElement("li");
    item.id = "choice-" + index;
    item.setAttribute("role", "option");
    item.setAttribute("aria-selected", "false");
    item.dataset.text = option.text;
    const icon = document.createElement("span");
    icon.className = "icon";
    icon.setAttribute("aria-hidden", "true");
    icon.textContent = option.history ? "↺" : "⌕";
    const label = document.createElement("span");
    label.className = "text";
    label.textContent = option.text;
    item.append(icon, label);
    if (option.id !== undefined) {
      item.dataset.historyId = option.id;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "remove";
      remove.tabIndex = -1;
      remove.setAttribute("aria-label", "Delete " + option.text + " from history");
      remove.textContent = "×";
      remove.addEventListener("mousedown", (event) => event.preventDefault());
      remove.addEventListener("click", (event) => {
        event.stopPropagation();
        deleteHistoryEntry(option.id);
      });
      item.append(remove);
    }
    item.addEventListener("mousedown", (event) => event.preventDefault());
    item.addEventListener("click", () => pick(option.text));
    return item;
  });
  if (isHistory && options.length > 0) {
    const clear = document.createElement("li");
    clear.id = "choice-clear";
    clear.className = "clear";
    clear.setAttribute("role", "option");
    clear.setAttribute("aria-selected", "false");
    clear.dataset.action = "clear";
    clear.textContent = "Clear history";
    clear.addEventListener("mousedown", (event) => event.preventDefault());
    clear.addEventListener("click", clearHistory);
    items.push(clear);
  }
  choices.replaceChildren(...items);
  const open = items.length > 0 && document.activeElement === input;
  choices.hidden = !open;
  input.setAttribute("aria-expanded", String(open));
}

function closeChoices() {
  state.choiceGeneration++;
  choices.hidden = true;
  input.setAttribute("aria-expanded", "false");
  input.removeAttribute("aria-activedescendant");
  state.activeChoice = -1;
}

function moveChoice(step) {
  const items = [...choices.querySelectorAll('[role="option"]')];
  if (items.length === 0) return;
  items[state.activeChoice]?.setAttribute("aria-selected", "false");
  state.activeChoice = state.activeChoice < 0
    ? (step > 0 ? 0 : items.length - 1)
    : (state.activeChoice + step + items.length) % items.length;
  const item = items[state.activeChoice];
  item.setAttribute("aria-selected", "true");
  input.setAttribute("aria-activedescendant", item.id);
  item.scrollIntoView({ block: "nearest" });
}

function pick(text) {
  input.value = text;
  state.literal = false;
  closeChoices();
  writeURL({ push: true });
  state.committed = true;
  logSearch();
  search();
}

async function deleteHistoryEntry(id) {
  try {
    await api("DELETE", "/api/history/" + id);
  } catch (error) {
    showProblem(problem, error);
  }
  input.focus();
  showChoices();
}

async function clearHistory() {
  try {
    await api("DELETE", "/api/history");
  } catch (error) {
    showProblem(problem, error);
  }
  closeChoices();
}

// MARK: Wiring

input.addEventListener("input", () => {
  state.literal = false;
  writeURL({ push: state.committed });
  state.committed = false;
  search();
  showChoices();
});

input.addEventListener("focus", () => showChoices());
input.addEventListener("blur", () => closeChoices());

input.addEventListener("keydown", (event) => {
  const open = !choices.hidden;
  switch (event.key) {
    case "ArrowDown":
      event.preventDefault();
      if (!open) showChoices(); else moveChoice(1);
      break;
    case "ArrowUp":
      if (open) { event.preventDefault(); moveChoice(-1); }
      break;
    case "Escape":
      if (open) { event.preventDefault(); closeChoices(); }
      break;
    case "Delete":
      if (open && state.activeChoice >= 0) {
        const item = choices.querySelectorAll('[role="option"]')[state.activeChoice];
        if (item?.dataset.historyId) { event.preventDefault(); deleteHistoryEntry(item.dataset.historyId); }
      }
      break;
    case "Enter": {
      event.preventDefault();
      const item = open && state.activeChoice >= 0
        ? choices.querySelectorAll('[role="option"]')[state.activeChoice] : null;
      if (item?.dataset.action === "clear") clearHistory();
      else if (item) pick(item.dataset.text);
      else {
        closeChoices();
        writeURL({ push: false });
        state.committed = true;
        logSearch();
        search();
      }
      break;
    }
  }
});

$("search-form").addEventListener("submit", (event) => event.preventDefault());
function refine() {
  state.literal = false;
  writeURL({ push: true });
  state.committed = true;
  search();
}
for (const control of [matchSelect, kindSelect, sortSelect, sectionsBox]) {
  control.addEventListener("change", refine);
}
facets.onChange = refine;
moreButton.addEventListener("click", () => search({ append: true }));
$("add-person").addEventListener("click", () => openEditor("people", null));
$("add-animal").addEventListener("click", () => openEditor("animals", null));
window.addEventListener("popstate", () => { readURL(); closeChoices(); search(); });

readURL();
search();
