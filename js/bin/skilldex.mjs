#!/usr/bin/env node
// skilldex: the command line of the skilldex package. Runs under `node` and
// Deno and Bun. Under Deno it needs only --allow-read (scoped to this
// package and the folders it reads) when --cwd and --home are given, and
// --allow-sys=homedir besides when --home is not. Usage: skilldex --help.
//
// Exit status: 0 success, 1 the operation failed (message on stderr, or the
// error object on stdout with --json), 2 a usage error.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { Buffer } from 'node:buffer';
import { parseArgs } from 'node:util';

const USAGE = `usage: skilldex <command> [arguments] [flags]

commands:
  list                 the skills discovered for --cwd and --home
  read <skill-url>     the content of a skill:// URL
  files <name>         the files of a skill
  prompt               the system-prompt block listing the skills
                         --format markdown|xml, --no-read-tool, --max-chars N
  expand "<text>"      expand a /skill:<name> command (other text is printed unchanged)
  commands             the /skill:<name> commands, for autocompletion
  context              the XCSH.md context files, in order
  validate <dir>       check a skill directory against the Agent Skills spec
  explain <name>       where a skill name was found and why each copy won or lost

flags:
  --cwd DIR            working directory (default: the current one)
  --home DIR           home directory (default: the user's)
  --settings FILE      JSON file with discovery options (enabled, customDirectories, ...)
  --json               print the engine's JSON (errors as {"error":{"code","message"}})
  -h, --help           this help
  --version            the package version

exit status: 0 ok, 1 the operation failed, 2 usage error`;

const ARITY = { list: 0, read: 1, files: 1, prompt: 0, expand: 1, commands: 0, context: 0, validate: 1, explain: 1 };
const ARG_NAME = { read: '<skill-url>', files: '<name>', expand: '"<text>"', validate: '<dir>', explain: '<name>' };
const PROMPT_FLAGS = ['format', 'no-read-tool', 'max-chars'];

/** Write all of s to fd, synchronously (so process.exit loses nothing). */
function out(fd, s) {
  const buf = Buffer.from(s);
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EPIPE') return;
      throw e;
    }
  }
}

class Exit extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
const usage = (message) => new Exit(2, 'USAGE', message);

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        cwd: { type: 'string' },
        home: { type: 'string' },
        settings: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
        format: { type: 'string' },
        'no-read-tool': { type: 'boolean' },
        'max-chars': { type: 'string' },
      },
    });
  } catch (e) {
    throw usage(String(e.message).replace(/\. To specify a positional argument.*$/s, ''));
  }
  const { values, positionals } = parsed;
  if (values.help || values.version) return { values, command: null, args: [] };
  const [command, ...args] = positionals;
  if (!command) throw usage('no command given');
  if (!(command in ARITY)) throw usage(`unknown command "${command}"`);
  if (args.length < ARITY[command]) throw usage(`${command}: missing ${ARG_NAME[command]}`);
  if (args.length > ARITY[command]) throw usage(`${command}: unexpected argument "${args[ARITY[command]]}"`);
  if (command !== 'prompt') {
    for (const f of PROMPT_FLAGS) if (values[f] !== undefined) throw usage(`--${f} is a flag of prompt only`);
  }
  if (values.format !== undefined && values.format !== 'markdown' && values.format !== 'xml') {
    throw usage(`--format must be markdown or xml, not "${values.format}"`);
  }
  if (values['max-chars'] !== undefined && !/^\d+$/.test(values['max-chars'])) {
    throw usage(`--max-chars must be a non-negative integer, not "${values['max-chars']}"`);
  }
  for (const f of ['cwd', 'home', 'settings']) {
    if (values[f] === '') throw usage(`--${f} needs a value`);
  }
  return { values, command, args };
}

function readSettings(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Exit(1, 'INVALID_ARGUMENT', `settings ${file}: ${e.code ?? e.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Exit(1, 'INVALID_ARGUMENT', `settings ${file}: not valid JSON: ${e.message}`);
  }
}

/** A default the runtime must be asked for; a refusal (Deno's permissions) says how to do without it. */
function processDir(flag, what, grant, get) {
  try {
    return get();
  } catch (e) {
    throw new Exit(1, 'INVALID_ARGUMENT', `no ${flag} given and the runtime refused ${what}: pass ${flag}, or grant it (Deno: ${grant}): ${e.message}`);
  }
}

/** The request for a command. Paths given as arguments are relative to the shell's directory. */
function request(command, args, values) {
  // validate needs no load context: asking for it would make Deno require
  // --allow-sys=homedir for nothing (least privilege, issue 14).
  if (command === 'validate') return { op: 'validate', dir: path.resolve(args[0]) };
  const ctx = {
    cwd: path.resolve(values.cwd ?? processDir('--cwd', 'the working directory', 'read access to it', () => process.cwd())),
    home: path.resolve(values.home ?? processDir('--home', 'the home directory', '--allow-sys=homedir', () => os.homedir())),
    options: values.settings !== undefined ? readSettings(values.settings) : undefined,
  };
  switch (command) {
    case 'list':
      return { op: 'discover', ...ctx };
    case 'read':
      return { op: 'resolve', ...ctx, url: args[0] };
    case 'files':
      return { op: 'listFiles', ...ctx, name: args[0] };
    case 'prompt':
      return {
        op: 'renderPrompt',
        ...ctx,
        format: values.format,
        readTool: values['no-read-tool'] ? false : undefined,
        maxChars: values['max-chars'] !== undefined ? Number(values['max-chars']) : undefined,
      };
    case 'expand':
      return { op: 'expandCommand', ...ctx, text: args[0] };
    case 'commands':
      return { op: 'commands', ...ctx };
    case 'context':
      return { op: 'contextFiles', ...ctx };
    case 'explain':
      return { op: 'explain', ...ctx, name: args[0] };
  }
}

/** Rows as an aligned table; the last column is not padded. */
function table(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...r[i]].length)));
  return all.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd()).join('\n') + '\n';
}

const oneLine = (s) => String(s).replace(/\s+/g, ' ').trim();

/** Cut s to n characters with an ellipsis, when stdout is a terminal. */
function fit(s, used) {
  const cols = process.stdout.isTTY ? process.stdout.columns : 0;
  if (!cols) return s;
  const room = Math.max(20, cols - used);
  const chars = [...s];
  return chars.length > room ? chars.slice(0, room - 1).join('') + '…' : s;
}

function warningsText(warnings) {
  if (!warnings?.length) return '';
  const lines = warnings.map((w) =>
    w.skillPath && !w.message.includes(w.skillPath) ? `warning: ${w.skillPath}: ${w.message}` : `warning: ${w.message}`,
  );
  return '\n' + lines.join('\n') + '\n';
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Human output for a successful reply; returns [stdout, stderr, status]. */
function human(command, r, args) {
  switch (command) {
    case 'list': {
      let s = '';
      if (r.skills.length) {
        const rows = r.skills.map((k) => [k.name, k.source, oneLine(k.description)]);
        const nameW = Math.max(4, ...rows.map((x) => x[0].length));
        const srcW = Math.max(6, ...rows.map((x) => x[1].length));
        s = table(['NAME', 'SOURCE', 'DESCRIPTION'], rows.map((x) => [x[0], x[1], fit(x[2], nameW + srcW + 4)]));
      }
      s += `${plural(r.skills.length, 'skill')}`;
      if (r.shadowed.length) s += `, ${r.shadowed.length} not loaded (skilldex explain <name>)`;
      s += '\n' + warningsText(r.warnings);
      return [s, '', 0];
    }
    case 'read':
      return [r.content, '', 0];
    case 'files':
      return [r.files.map((f) => f + '\n').join(''), '', 0];
    case 'prompt': {
      let err = '';
      if (r.omitted.length) err += `note: omitted ${r.omitted.join(', ')}\n`;
      if (r.shortened.length) err += `note: shortened ${r.shortened.join(', ')}\n`;
      return [r.text && !r.text.endsWith('\n') ? r.text + '\n' : r.text, err, 0];
    }
    case 'expand': {
      const text = r === null ? args[0] : r.message;
      return [text.endsWith('\n') ? text : text + '\n', '', 0];
    }
    case 'commands':
      return [r.commands.length ? table(['COMMAND', 'DESCRIPTION'], r.commands.map((c) => ['/' + c.name, oneLine(c.description)])) : '', r.commands.length ? '' : 'no skill commands\n', 0];
    case 'context':
      return [
        r.files.map((f) => `==> ${f.path} (${f.level}${f.depth === null ? '' : `, depth ${f.depth}`}) <==\n${f.content.endsWith('\n') ? f.content : f.content + '\n'}`).join('\n'),
        r.files.length ? '' : 'no context files\n',
        0,
      ];
    case 'validate': {
      const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
      if (!r.diagnostics.length) return [`${r.dir}: ok\n`, '', 0];
      const s = table(
        ['SEVERITY', 'LINE', 'CODE', 'MESSAGE'],
        r.diagnostics.map((d) => [d.severity, d.line === undefined ? '-' : String(d.line), d.code, oneLine(d.message)]),
      );
      return [s + `${r.dir}: ${plural(errors, 'error')}, ${plural(r.diagnostics.length - errors, 'other finding')}\n`, '', errors ? 1 : 0];
    }
    case 'explain': {
      let s = r.winner ? `${r.name}: loaded from ${r.winner.filePath} (${r.winner.source})\n` : `${r.name}: not loaded\n`;
      if (r.candidates.length) {
        s += '\n' + table(['OUTCOME', 'SOURCE', 'FILE', 'REASON'], r.candidates.map((c) => [c.outcome, c.source, c.filePath, c.reason ?? '']));
      }
      return [s, '', 0];
    }
  }
}

async function main(argv) {
  let json = argv.includes('--json');
  try {
    const { values, command, args } = parse(argv);
    json = !!values.json;
    if (values.help) return out(1, USAGE + '\n'), 0;
    if (values.version) {
      const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
      return out(1, pkg.version + '\n'), 0;
    }
    const req = request(command, args, values);
    // Our own process only: a baseline-compiler-only V8 starts the module
    // far sooner for one short run (docs/PERF-NOTES.md). Never done by the library.
    if (!globalThis.Deno && !process.versions.bun) {
      const v8 = await import('node:v8');
      v8.setFlagsFromString('--liftoff-only');
    }
    const { createSkilldex } = await import('../index.js');
    const reply = await createSkilldex().call(req);
    const parsed = JSON.parse(reply);
    const failed = parsed !== null && typeof parsed === 'object' && Object.keys(parsed)[0] === 'error';
    if (json) {
      out(1, reply + '\n');
      if (failed) return 1;
      return command === 'validate' && parsed.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
    }
    if (failed) {
      out(2, `skilldex: ${parsed.error.message}\n`);
      return 1;
    }
    const [stdout, stderr, status] = human(command, parsed, args);
    if (stdout) out(1, stdout);
    if (stderr) out(2, stderr);
    return status;
  } catch (e) {
    const status = e instanceof Exit ? e.status : 1;
    const code = e.code && typeof e.code === 'string' ? e.code : 'INTERNAL';
    if (json) {
      out(1, JSON.stringify({ error: { code, message: e.message } }) + '\n');
    } else {
      out(2, `skilldex: ${e.message}\n`);
      if (status === 2) out(2, 'run skilldex --help for usage\n');
    }
    return status;
  }
}

process.exit(await main(process.argv.slice(2)));
