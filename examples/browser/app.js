// The skill author's page: drop a skill folder (or a folder of skills) and
// see what skilldex makes of it. The files are copied into a MemoryFS under
// a made-up workspace; the engine (the same skilldex.wasm as everywhere,
// fetched and compiled by the browser) then discovers them as a custom
// skills directory, validates each skill folder, renders the prompt, and
// says which coding agents would load each skill from the folder the
// author picks (SPEC S67: where).

import { createSkilldex, MemoryFS } from '../../js/index.js';

/** Where the dropped skills go in the in-memory tree. */
const HOME = '/home/author';
const CWD = '/workspace';
const ROOT = '/workspace/skills';
/** Where the dropped skills go for "who loads it": outside every agent's folders (OpenClaw reads <cwd>/skills). */
const ASIDE = '/dropped';
const ctx = (/** @type {MemoryFS} */ fs) => ({ cwd: CWD, home: HOME, options: { customDirectories: [ROOT] } });

/** @type {import('../../js/index.js').Skilldex | null} */
let engine = null;
/** @type {{fs: MemoryFS | null}} */
const current = { fs: null };

/**
 * The folders an author can put a skill in, from the agent table: each
 * project folder and each user folder (its default, without environment
 * variables), the ones most agents read first.
 * @type {{label: string, dir: string}[]}
 */
let places = [];
/** The files of the last drop, the skill folders among them, for another place. */
let last = /** @type {{files: {rel: string, data: Uint8Array}[], dirs: string[]} | null} */ (null);

/** The filesystem the engine reads: whatever was dropped last. */
const swap = {
  readDir: (/** @type {string} */ p) => /** @type {MemoryFS} */ (current.fs).readDir(p),
  stat: (/** @type {string} */ p) => /** @type {MemoryFS} */ (current.fs).stat(p),
  lstat: (/** @type {string} */ p) => /** @type {MemoryFS} */ (current.fs).lstat(p),
  readFile: (/** @type {string} */ p) => /** @type {MemoryFS} */ (current.fs).readFile(p),
  readFileInto: (/** @type {string} */ p, /** @type {Uint8Array} */ b) => /** @type {MemoryFS} */ (current.fs).readFileInto(p, b),
  realpath: (/** @type {string} */ p) => /** @type {MemoryFS} */ (current.fs).realpath(p),
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

function status(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** A table row of text cells (never HTML: the files are the author's, not ours). */
function row(cells, cls = '') {
  const tr = document.createElement('tr');
  if (cls) tr.className = cls;
  for (const [text, tdClass] of cells) {
    const td = document.createElement('td');
    td.textContent = text;
    if (tdClass) td.className = tdClass;
    tr.append(td);
  }
  return tr;
}

/**
 * A diagnostic's problem, for a table whose other columns show its file,
 * line and fix: the message without the fix it ends with (SPEC S73: a
 * message "<problem>; <fix>" has that fix in `fix`), and without the
 * "<path>:<line>: " it starts with when it names its file.
 * @param {import('../../js/index.js').Diagnostic} d
 */
function problemOf(d) {
  let m = d.message;
  if (d.fix && m.endsWith(`; ${d.fix}`)) m = m.slice(0, -(d.fix.length + 2));
  for (const at of [d.line ? `${d.path}:${d.line}: ` : '', `${d.path}: `]) {
    if (at && m.startsWith(at)) return m.slice(at.length);
  }
  return m;
}

/** "line" or "line:column", or "" (S73). @param {import('../../js/index.js').Diagnostic} d */
const place = (d) => (d.line === undefined ? '' : d.column === undefined ? String(d.line) : `${d.line}:${d.column}`);

/** A path as the author knows it: relative to the dropped folder's parent. */
let shown = (/** @type {string} */ p) => p;

/**
 * A warning's cells, from its fields (S73): file, line, code, problem, fix.
 * @param {import('../../js/index.js').Warning} w
 */
function warningCells(w) {
  return [[shown(w.path), 'path'], [place(w), 'line'], [w.code, 'path'], [problemOf(w)], [w.fix ?? '', 'fix']];
}

/**
 * Copy the dropped files into a fresh MemoryFS and show the engine's view.
 * files: paths relative to the drop, the folder first ("pdf/SKILL.md",
 * "skills/pdf/SKILL.md").
 * @param {{path: string, data: Uint8Array}[]} files
 */
export async function load(files) {
  if (!engine) throw new Error('the engine is not ready');
  files = files.filter((f) => f.path && !f.path.split('/').some((c) => c === '' || c === '.' || c === '..'));
  // Loose files (dropped without their folder) are one skill folder.
  if (files.length && !files.some((f) => f.path.includes('/'))) files = files.map((f) => ({ ...f, path: `dropped/${f.path}` }));
  if (!files.length) {
    status('Nothing to read: drop a folder that holds a SKILL.md, or folders that do.', true);
    return null;
  }
  const top = files[0].path.split('/')[0];
  const sameTop = files.every((f) => f.path.startsWith(top + '/'));
  // A folder holding SKILL.md is one skill; any other folder is a skills root.
  const single = !sameTop || files.some((f) => f.path === `${top}/SKILL.md`);
  const fs = new MemoryFS();
  fs.mkdir(ROOT);
  for (const f of files) {
    const rel = single ? (sameTop ? f.path : `${top}/${f.path}`) : f.path.slice(top.length + 1);
    fs.writeFile(`${ROOT}/${rel}`, f.data);
  }
  shown = (p) => (p.startsWith(ROOT + '/') ? (single ? '' : top + '/') + p.slice(ROOT.length + 1) : p);
  current.fs = fs;

  const found = await engine.discover(ctx(fs));
  const dirs = fs
    .readDir(ROOT)
    .filter((e) => e.type === 'dir' && fs.stat(`${ROOT}/${e.name}/SKILL.md`) !== null)
    .map((e) => `${ROOT}/${e.name}`)
    .sort();
  const reports = [];
  for (const dir of dirs) reports.push(await engine.validate(dir));
  const prompt = await engine.renderPrompt(ctx(fs));
  last = { files: files.map((f) => ({ rel: single ? (sameTop ? f.path : `${top}/${f.path}`) : f.path.slice(top.length + 1), data: f.data })), dirs };
  const where = await whoLoads();
  show(found, reports, prompt.text);
  const problems = reports.reduce((n, r) => n + r.diagnostics.length, 0);
  status(`Read ${files.length} file${files.length === 1 ? '' : 's'}: ${found.skills.length} skill${found.skills.length === 1 ? '' : 's'} loaded, ${found.warnings.length} warning${found.warnings.length === 1 ? '' : 's'}, ${problems} validation finding${problems === 1 ? '' : 's'}.`);
  return { discover: found, validate: reports, prompt: prompt.text, where };
}

/**
 * Which agents load each dropped skill when it sits in the chosen place
 * (SPEC S67): a second tree holds the files aside and, in the place, a
 * link to each skill folder; where then asks every agent of the table about
 * the folder, which it reaches through the link.
 */
async function whoLoads() {
  if (!engine || !last) return [];
  const place = places[Number(/** @type {HTMLSelectElement} */ ($('place')).value) || 0];
  const fs = new MemoryFS();
  for (const f of last.files) fs.writeFile(`${ASIDE}/${f.rel}`, f.data);
  const at = place.dir.startsWith('~/') ? HOME + place.dir.slice(1) : `${CWD}/${place.dir}`;
  const aside = last.dirs.map((dir) => ASIDE + dir.slice(ROOT.length));
  for (const dir of aside) fs.symlink(dir, `${at}/${dir.slice(ASIDE.length + 1)}`);
  const keep = current.fs;
  current.fs = fs;
  try {
    const out = [];
    for (const dir of aside) out.push(await engine.where(dir, { cwd: CWD, home: HOME }));
    showWhere(out);
    return out;
  } finally {
    current.fs = keep;
  }
}

/** In a reason, the words an author reads. */
const REASONS = { name: 'its name is taken by', realpath: 'the same files are loaded from', 'link-outside': 'its SKILL.md links outside the skill' };

/** @param {import('../../js/index.js').WhereResult[]} results */
function showWhere(results) {
  const box = $('where');
  box.replaceChildren();
  let loads = 0;
  for (const r of results) {
    const h = document.createElement('h3');
    h.textContent = shown(ROOT + r.dir.slice(ASIDE.length)) || '(the dropped folder)';
    box.append(h);
    const reached = r.agents.filter((a) => a.filePath !== undefined);
    const table = document.createElement('table');
    table.className = 'where';
    const head = document.createElement('thead');
    const hr = document.createElement('tr');
    for (const name of ['agent', 'loads it', 'as', 'why not']) {
      const th = document.createElement('th');
      th.textContent = name;
      hr.append(th);
    }
    head.append(hr);
    const body = document.createElement('tbody');
    for (const a of reached) {
      loads += a.loaded ? 1 : 0;
      const why = a.loaded ? '' : `${REASONS[/** @type {keyof typeof REASONS} */ (a.reason)] ?? a.reason}${a.winner ? ' ' + shown(a.winner) : ''}`;
      body.append(row([[a.displayName], [a.loaded ? 'yes' : 'no'], [a.name ?? '', 'path'], [why]], a.loaded ? '' : 'warning'));
    }
    if (!reached.length) body.append(row([['no agent reads this folder', 'empty'], [''], [''], ['']]));
    table.append(head, body);
    box.append(table);
    const rest = r.agents.filter((a) => a.filePath === undefined).map((a) => a.displayName);
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = rest.length ? `Not in the folders of: ${rest.join(', ')}.` : 'Every agent reaches it.';
    box.append(p);
  }
  $('where-count').textContent = `(${loads} load${loads === 1 ? 's' : ''})`;
}

function show(found, reports, promptText) {
  const skills = /** @type {HTMLElement} */ ($('skills').querySelector('tbody'));
  skills.replaceChildren(...found.skills.map((s) => row([[s.name], [s.description], [shown(s.filePath), 'path']])));
  if (!found.skills.length) skills.replaceChildren(row([['no skill loaded', 'empty'], [''], ['']]));
  $('skill-count').textContent = `(${found.skills.length})`;

  const warnings = /** @type {HTMLElement} */ ($('warnings').querySelector('tbody'));
  warnings.replaceChildren(...found.warnings.map((w) => row(warningCells(w), 'warning')));
  if (!found.warnings.length) warnings.replaceChildren(row([['none', 'empty'], [''], [''], [''], ['']]));
  $('warning-count').textContent = `(${found.warnings.length})`;

  const box = $('validate');
  box.replaceChildren();
  let findings = 0;
  for (const r of reports) {
    const h = document.createElement('h3');
    h.textContent = shown(r.dir) || '(the dropped folder)';
    box.append(h);
    if (!r.diagnostics.length) {
      const p = document.createElement('p');
      p.className = 'ok';
      p.textContent = 'ok: no findings';
      box.append(p);
      continue;
    }
    findings += r.diagnostics.length;
    const table = document.createElement('table');
    const head = document.createElement('thead');
    const hr = document.createElement('tr');
    for (const name of ['severity', 'line', 'code', 'problem', 'fix']) {
      const th = document.createElement('th');
      th.textContent = name;
      hr.append(th);
    }
    head.append(hr);
    const body = document.createElement('tbody');
    for (const d of r.diagnostics) {
      body.append(row([[d.severity], [place(d), 'line'], [d.code, 'path'], [problemOf(d)], [d.fix ?? '', 'fix']], d.severity));
    }
    table.append(head, body);
    box.append(table);
  }
  $('validate-count').textContent = `(${findings} finding${findings === 1 ? '' : 's'} in ${reports.length} folder${reports.length === 1 ? '' : 's'})`;
  $('prompt').textContent = promptText || '(empty: no skill to list)';
  $('results').hidden = false;
}

/** Every file under a dropped directory entry, with its path from the entry. */
async function walk(/** @type {any} */ entry, /** @type {string} */ prefix, /** @type {{path: string, data: Uint8Array}[]} */ out) {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise((res, rej) => entry.file(res, rej));
    out.push({ path, data: new Uint8Array(await file.arrayBuffer()) });
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const e of batch) await walk(e, path, out);
    }
  }
}

/** Files from an <input webkitdirectory> (or a drop without entries). */
async function fromFileList(/** @type {FileList} */ list) {
  const out = [];
  for (const f of list) out.push({ path: f.webkitRelativePath || f.name, data: new Uint8Array(await f.arrayBuffer()) });
  return out;
}

async function guarded(/** @type {() => Promise<{path: string, data: Uint8Array}[]>} */ read) {
  try {
    status('Reading…');
    await load(await read());
  } catch (e) {
    status(`Could not read that: ${e instanceof Error ? e.message : String(e)}`, true);
  }
}

const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const dt = /** @type {DataTransfer} */ (e.dataTransfer);
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  guarded(async () => {
    if (!entries.length) return fromFileList(dt.files);
    const out = [];
    for (const entry of entries) await walk(entry, '', out);
    return out;
  });
});
const pick = /** @type {HTMLInputElement} */ ($('pick'));
pick.addEventListener('change', () => guarded(() => fromFileList(/** @type {FileList} */ (pick.files))));

// For scripts and tests: window.skilldexExample.load(files).
/** @type {any} */ (window).skilldexExample = { load, ready: null };
/** @type {any} */ (window).skilldexExample.ready = (async () => {
  const sk = createSkilldex({ fs: swap });
  current.fs = new MemoryFS();
  await sk.ready();
  engine = sk;
  // The places to offer, from the agent table: by how many agents read them.
  const count = new Map();
  for (const a of (await sk.agents()).agents) {
    const user = a.userDirs.map((d) => d.replace(/^\$\{[A-Z_]+:-([^}]*)\}/, '$1')).filter((d) => d.startsWith('~/'));
    for (const d of [...a.projectDirs, ...user]) count.set(d, (count.get(d) ?? 0) + 1);
  }
  places = [...count].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([dir, n]) => ({ dir, label: `${dir} (read by ${n} agent${n === 1 ? '' : 's'})` }));
  const select = /** @type {HTMLSelectElement} */ ($('place'));
  select.replaceChildren(...places.map((p, i) => Object.assign(document.createElement('option'), { value: String(i), textContent: p.label })));
  select.addEventListener('change', () => whoLoads().catch((e) => status(`Could not ask the agents: ${e instanceof Error ? e.message : String(e)}`, true)));
  status('Ready: drop a skill folder, or a folder of skills.');
})().catch((e) => status(`The engine did not load: ${e instanceof Error ? e.message : String(e)}`, true));
