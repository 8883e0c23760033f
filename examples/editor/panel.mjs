#!/usr/bin/env node
// An editor's skills panel, in a terminal: what an editor extension does
// with skilldex. It opens a workspace with the worker engine (so
// discovery never blocks the editor's thread), prints the skills, prints
// each change as it happens, and answers "which skills apply to this file?"
// for every path typed on stdin. EOF or "quit" closes it.
//
//	node examples/editor/panel.mjs [--cwd DIR] [--home DIR] [--debounce MS]
//	deno run -A examples/editor/panel.mjs ...
//
// package.json here makes this folder a package: Deno then resolves
// js/index.js's "#platform" import (package.json "imports") as Node does.
//
// Output, one line per fact (a test drives it: js/test/editor-example.test.js):
//
//	skill <name> (<source>): <description>     the skills at start, then "ready"
//	+ <name> (<source>): <description>         a skill appeared
//	~ <name>: <description>                    a skill changed
//	- <name>                                   a skill went away
//	= <n> skills, digest <digest>              after every change
//	problem <severity> <code> <file>[:<line>[:<column>]][ fix: <fix>]
//	                                           each warning, at start and after every change,
//	                                           read from its fields (SPEC S73), as an
//	                                           editor's Problems panel shows it
//	? <path>: <name> (<reason>), ...           the skills that apply to <path>, or "none"

import process from 'node:process';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { createSkilldex } from '../../js/index.js';

const { values } = parseArgs({
  options: { cwd: { type: 'string' }, home: { type: 'string' }, debounce: { type: 'string', default: '100' } },
});
const ctx = { cwd: values.cwd ?? process.cwd(), home: values.home };
const say = (line) => process.stdout.write(line + '\n');
const oneLine = (s) => String(s).replace(/\s+/g, ' ').trim();

/**
 * A warning as a Problems panel entry: where (file, line, column), how bad,
 * which check, and the quick fix, each from its own field (S73).
 * @param {import('../../js/index.js').Warning} w
 */
function problem(w) {
  const at = w.path + (w.line === undefined ? '' : `:${w.line}${w.column === undefined ? '' : `:${w.column}`}`);
  return `problem ${w.severity} ${w.code} ${at || '(options)'}${w.fix ? ` fix: ${oneLine(w.fix)}` : ''}`;
}

// One engine for the whole session: the worker starts with the first call
// and is reused by every later one.
const sk = createSkilldex({ ...ctx, worker: true });

const watch = sk.watch(
  ctx,
  ({ result, added, removed, changed }) => {
    for (const s of added) say(`+ ${s.name} (${s.source}): ${oneLine(s.description)}`);
    for (const s of changed) say(`~ ${s.name}: ${oneLine(s.description)}`);
    for (const s of removed) say(`- ${s.name}`);
    say(`= ${result.skills.length} skills, digest ${result.digest}`);
    for (const w of result.warnings) say(problem(w));
  },
  { debounceMs: Number(values.debounce), onError: (e) => say(`! ${e.message}`) },
);

const first = await watch.ready;
for (const s of first.skills) say(`skill ${s.name} (${s.source}): ${oneLine(s.description)}`);
for (const w of first.warnings) say(problem(w));
say(`ready: ${first.skills.length} skills, watching ${watch.watching} directories`);

// Questions are answered one at a time, in the order they were asked.
let queue = Promise.resolve();
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const file = line.trim();
  if (!file) return;
  if (file === 'quit') return rl.close();
  queue = queue.then(async () => {
    const { skills } = await sk.match([file]);
    say(`? ${file}: ${skills.length ? skills.map((m) => `${m.name} (${m.reason})`).join(', ') : 'none'}`);
  });
});
rl.on('close', async () => {
  await queue;
  await watch.close();
  await sk.close();
  // Nothing is left to keep the process alive: it exits by itself.
});
