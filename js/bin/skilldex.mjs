#!/usr/bin/env node
// skilldex: the command line of the skilldex package. Runs under `node` and
// Deno and Bun. Under Deno it needs only --allow-read (scoped to this
// package and the folders it reads) when --cwd and --home are given, and
// --allow-sys=homedir besides when --home is not. Usage: skilldex help.
// A read Deno refuses is a warning naming the --allow-read to give (SPEC
// S75), and no answer is silent (S76): a --cwd or --home that is not a
// directory is an error, an unknown command or flag says what was meant.
//
// Exit status: 0 success, 1 the operation failed (message on stderr, or the
// error object on stdout with --json), 2 a usage error.
//
// What a person at a terminal sees (the --json output is the engine's JSON,
// unchanged):
//   - Every name, description, path and message is printed with its control
//     characters escaped (C0 and C1 controls, DEL, and the bidirectional
//     overrides become \xHH or \uHHHH), so a skill cannot move the cursor,
//     clear the screen, retitle the window or write the clipboard. Tables
//     get one-line cells (tabs and newlines escaped too); file contents
//     (read, expand, context, prompt) keep their newlines and tabs, and are
//     escaped only when they go to a terminal, so a pipe gets the exact text.
//   - Descriptions in tables are cut with "…" to the terminal's width when
//     stdout is a terminal, or to $COLUMNS when it is set; --wide prints them
//     whole.
//   - Warnings go to stderr. Error messages are one line, their line breaks
//     escaped like any control character (but for the two lines of an
//     unknown-skill message's own), so an argument holding a newline
//     cannot fake a second line (SPEC S58).

import { createRequire } from 'node:module';

// The built-in modules come through require (as in src/platform/node.js):
// Node builds the ES module face of a built-in by reading every property,
// and node:fs's and node:process's getters load more modules, about 12 ms
// of a run that takes a few hundred. process and Buffer are
// globals in Node, Deno 2 and Bun.
const require = createRequire(import.meta.url);
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { process, Buffer } = globalThis;

const USAGE = `usage: skilldex <command> [arguments] [flags]

commands:
  list                 the skills discovered for --cwd and --home
                         --all: also the skills not loaded, with the reason
                         --wide: descriptions whole, not cut to the terminal
  read <skill-url>     the content of a skill:// URL (skill://<name>[/<path>])
  files <name>         the files of a skill
  prompt               the system-prompt block listing the skills
                         --format markdown|xml, --no-read-tool, --max-chars N
  expand "<text>"      expand a /skill:<name> command (other text is printed unchanged)
  commands             the /skill:<name> commands, for autocompletion
  context              the XCSH.md context files, in order
  validate <dir>...    check skill directories (or their SKILL.md files), or
                         skills roots (a folder of skill folders), against the
                         Agent Skills spec; exit 1 when any error is found
  explain <name>       where a skill name was found and why each copy won or lost
  match <path>...      the skills that apply to these files (alwaysApply, globs);
                         a relative path is relative to --cwd
  activate <name>      a skill as the activation tool gives it to the model: its
                         instructions, its directory and its files
  tool                 the activation tool's definition (JSON Schema), to
                         register with a model; none when no skill can be activated
  agents               the coding agents whose skill folders skilldex knows (the agent table)
  where <dir>          which agents load the skill folder <dir>, under which name, and what
                         keeps it out of the others
  mcp                  serve the skills to an MCP client over stdio (docs/MCP.md):
                         resources, prompts, activate_skill and read_skill_file;
                         --max-chars N bounds the server instructions (default 8000)
  help                 this help

flags:
  --cwd DIR            working directory (default: the current one)
  --home DIR           home directory (default: the user's)
  --settings FILE      JSON file with discovery options (enabled, customDirectories, ...)
  --untrusted          the project folder is not trusted: its skills and context
                         files are not loaded (options.trustedProject: false)
  --agent ID           discover the folders of this agent only, as it would (repeatable: the
                         first given wins a name; skilldex agents lists the ids); the agents'
                         environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME, ...) are read
  --json               print the engine's JSON (errors as {"error":{"code","message"}};
                         validate: one array of the replies)
  -h, --help           this help
  --version            the package version

exit status: 0 ok, 1 the operation failed, 2 usage error`;

// [least, most] positional arguments of each command (most -1: no limit).
const ARITY = {
  list: [0, 0], read: [1, 1], files: [1, 1], prompt: [0, 0], expand: [1, 1], commands: [0, 0], context: [0, 0],
  validate: [1, -1], explain: [1, 1], match: [1, -1], activate: [1, 1], tool: [0, 0], agents: [0, 0], where: [1, 1], mcp: [0, 0], help: [0, 1],
};
const ARG_NAME = { read: '<skill-url>', files: '<name>', expand: '"<text>"', validate: '<dir>', explain: '<name>', match: '<path>', activate: '<name>', where: '<dir>' };
// The commands a command-specific flag belongs to.
const COMMAND_FLAGS = {
  format: ['prompt'], 'no-read-tool': ['prompt'], 'max-chars': ['prompt', 'mcp'], all: ['list'], wide: ['list'],
};

/** Write all of s (a string or bytes) to fd, synchronously (so process.exit loses nothing). */
function out(fd, s) {
  const buf = typeof s === 'string' ? Buffer.from(s) : s;
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

// Control characters a terminal acts on: C0 (but TAB and LF, handled by
// the callers), DEL, C1, and the bidirectional embeddings, overrides and
// isolates that reorder what is shown ("Trojan source").
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const hex = (c) => {
  const n = c.codePointAt(0);
  return n < 0x100 ? '\\x' + n.toString(16).padStart(2, '0') : '\\u' + n.toString(16).padStart(4, '0');
};

/** Text for a terminal: control characters escaped; newlines and tabs kept. */
const safeText = (s) => String(s).replace(CONTROL, hex);
/** One line for a terminal: control characters, tabs and newlines escaped. */
const safe = (s) => safeText(s).replace(/[\t\n]/g, hex);
/**
 * An error message for stderr (SPEC S58): one line, its line breaks escaped
 * as every control character is, so a path or a name holding a newline
 * cannot forge a second line. The exceptions are S50's unknown-skill
 * message, whose "Did you mean:" and "Available:" lines are its own, and
 * S65's unknown-agent message ("Did you mean:", "Known agents:"): the
 * engine quotes every name in them without line breaks (S58), so each line
 * break left in them starts one of those lines and is kept.
 */
const errorText = (code, message) =>
  code === 'UNKNOWN_SKILL' || code === 'UNKNOWN_AGENT' ? String(message).split('\n').map(safe).join('\n') : safe(message);

class Exit extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
const usage = (message) => new Exit(2, 'USAGE', message);

/** The Levenshtein distance of a and b, in code points. */
function distance(a, b) {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}

/**
 * "; did you mean <x>?" for the closest of names to typed (S76): a name
 * typed with another case, one that starts with what was typed, or one
 * within two edits; "" when none is close.
 * @param {string} typed @param {string[]} names @param {(n: string) => string} show
 */
function didYouMean(typed, names, show) {
  const lower = typed.toLowerCase();
  const scored = names
    .map((n) => ({ n, d: n === lower ? 0 : typed.length >= 2 && n.startsWith(lower) ? 1 : distance(lower, n) }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : 1));
  return scored.length ? `; did you mean ${show(scored[0].n)}?` : '';
}

// The flags: a string flag takes a value (--cwd DIR, --cwd=DIR), a boolean
// one none, a list flag a value each time it is given (--agent). -h is
// --help.
const FLAGS = {
  cwd: 'string', home: 'string', settings: 'string', format: 'string', 'max-chars': 'string', agent: 'list',
  json: 'boolean', help: 'boolean', version: 'boolean', 'no-read-tool': 'boolean', all: 'boolean', wide: 'boolean',
  untrusted: 'boolean',
};
const SHORT_FLAGS = { h: 'help' };

/**
 * argv as flags and positional arguments; "--" ends the flags, and a flag
 * given twice keeps its last value. Not node:util's parseArgs: loading it
 * took a one-shot run 2-4 ms.
 * @param {string[]} argv
 */
function splitArgs(argv) {
  /** @type {Record<string, string | boolean>} */
  const values = {};
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const type = Object.hasOwn(FLAGS, name) ? FLAGS[name] : undefined;
      if (!type) throw usage(`unknown flag --${name}${didYouMean(name, Object.keys(FLAGS), (n) => `--${n}`)}`);
      if (type === 'boolean') {
        if (eq >= 0) throw usage(`--${name} takes no value`);
        values[name] = true;
      } else {
        let value;
        if (eq >= 0) {
          value = arg.slice(eq + 1);
        } else {
          value = argv[i + 1];
          if (value === undefined) throw usage(`--${name} needs a value`);
          if (value.startsWith('-') && value !== '-') throw usage(`--${name} needs a value, not the flag ${value} (a value that starts with "-" goes as --${name}=${value})`);
          i++;
        }
        values[name] = type === 'list' ? [...(/** @type {string[]} */ (values[name]) ?? []), value] : value;
      }
    } else if (arg.startsWith('-') && arg !== '-') {
      for (const c of arg.slice(1)) {
        if (!Object.hasOwn(SHORT_FLAGS, c)) throw usage(`unknown flag -${c}`);
        values[SHORT_FLAGS[c]] = true;
      }
    } else {
      positionals.push(arg);
    }
  }
  return { values, positionals };
}

function parse(argv) {
  const { values, positionals } = splitArgs(argv);
  if (values.help || values.version) return { values, command: null, args: [] };
  const [command, ...args] = positionals;
  if (!command) throw usage('no command given');
  if (!Object.hasOwn(ARITY, command)) throw usage(`unknown command "${command}"${didYouMean(command, Object.keys(ARITY), (n) => n)}`);
  const [least, most] = ARITY[command];
  if (args.length < least) throw usage(`${command}: missing ${ARG_NAME[command]}`);
  if (most >= 0 && args.length > most) throw usage(`${command}: unexpected argument "${args[most]}"`);
  for (const [f, owners] of Object.entries(COMMAND_FLAGS)) {
    if (values[f] !== undefined && !owners.includes(command)) throw usage(`--${f} is a flag of ${owners.join(' and ')} only`);
  }
  if (command === 'mcp' && values.json) throw usage('mcp speaks JSON-RPC on stdout already; drop --json');
  if (values.format !== undefined && values.format !== 'markdown' && values.format !== 'xml') {
    throw usage(`--format must be markdown or xml, not "${values.format}"`);
  }
  if (values['max-chars'] !== undefined && !/^\d+$/.test(values['max-chars'])) {
    throw usage(`--max-chars must be a non-negative integer, not "${values['max-chars']}"`);
  }
  for (const f of ['cwd', 'home', 'settings']) {
    if (values[f] === '') throw usage(`--${f} needs a value`);
  }
  if (values.agent !== undefined && (command === 'validate' || command === 'agents')) {
    throw usage(`--agent does not apply to ${command}`);
  }
  if (command === 'help' && args.length && !Object.hasOwn(ARITY, args[0])) {
    throw usage(`help: unknown command "${args[0]}"${didYouMean(args[0], Object.keys(ARITY), (n) => n)}`);
  }
  // S76: a name where a URL goes gets the URL it probably meant.
  if (command === 'read' && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(args[0])) {
    const name = args[0].replace(/^skill:\/*/i, '');
    throw usage(`read: "${args[0]}" is not a skill:// URL${name ? `; did you mean skill://${name}?` : ''}`);
  }
  return { values, command, args };
}

// The settings file (--settings) is read only when the file opened is a
// regular file of at most 16 MiB (SPEC S45): it is
// opened non-blocking and checked on its descriptor, so a FIFO (which
// would block the CLI forever), a device (/dev/zero never ends) or a file
// swapped for one of them after a check are refused, and reading stops
// past the bound whatever the file's size says (a /proc file says 0).
const MAX_SETTINGS_BYTES = 16 << 20;
const SETTINGS_FIX = 'give --settings a JSON file of discovery options (at most 16 MiB)';

/** What a non-regular file is, for a message. */
function fileKind(st) {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

// What a failed open means, for the codes a user meets.
const OPEN_ERRORS = {
  ENOENT: 'no such file', EACCES: 'permission denied', ELOOP: 'too many symlinks', ENOTDIR: 'a path through a file',
  ENXIO: 'a socket, or a device with nothing behind it',
};

function readSettings(file) {
  checkUTF8Path('--settings', file);
  const fail = (why) => new Exit(1, 'INVALID_ARGUMENT', `settings ${file}: ${why}; ${SETTINGS_FIX}`);
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw fail(e.code ? `${e.code}${OPEN_ERRORS[e.code] ? ` (${OPEN_ERRORS[e.code]})` : ''}` : e.message);
  }
  let text;
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw fail(`${fileKind(st)}, not a regular file`);
    if (st.size > MAX_SETTINGS_BYTES) throw fail(`${st.size} bytes, larger than 16 MiB`);
    // One byte past what the file says, to see it go on (a /proc file
    // says 0); the buffer grows up to one byte past the bound.
    let buf = Buffer.alloc(Math.min(st.size, MAX_SETTINGS_BYTES) + 1);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (got > MAX_SETTINGS_BYTES) throw fail('larger than 16 MiB (it grew while read)');
        const more = Buffer.alloc(Math.min(Math.max(buf.length * 2, 64 << 10), MAX_SETTINGS_BYTES + 1));
        buf.copy(more, 0, 0, got);
        buf = more;
      }
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    text = buf.toString('utf8', 0, got);
  } catch (e) {
    if (e instanceof Exit) throw e;
    throw fail(e.code ?? e.message);
  } finally {
    fs.closeSync(fd);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Exit(1, 'INVALID_ARGUMENT', `settings ${file}: not valid JSON: ${e.message}`);
  }
}

// Paths are UTF-8 text to the engine (and to the JS API). A runtime turns
// an argument, or a working directory, whose bytes are not valid UTF-8
// into text with U+FFFD in their place: that text names another path,
// and the command would answer for it without a word. So a
// path holding U+FFFD is refused, saying why and what to do. A name that
// really holds U+FFFD is refused too: without the raw bytes (which Deno
// does not give) the two cannot be told apart, and such names are rare.
function checkUTF8Path(what, p) {
  if (!p.includes('\ufffd')) return;
  throw new Exit(1, 'INVALID_ARGUMENT',
    `${what} ${p}: not valid UTF-8 (the runtime shows bytes that are not UTF-8 as U+FFFD, so this names another path); ` +
    'rename it to UTF-8, or pass a symlink to it whose path is UTF-8');
}

/**
 * A directory named by a flag (--cwd, --home), checked before any call
 * (S76): one that does not exist or is not a directory is an error naming
 * the flag, never an empty answer. A stat the runtime refuses is no
 * verdict (Deno may grant ~/.claude and not ~): the engine then reports
 * each skills root it cannot read, with the grant to give (S75).
 * @param {string} flag @param {string} dir the absolute path
 */
function checkDir(flag, dir) {
  let st;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') throw new Exit(1, 'NOT_FOUND', `${flag} ${dir}: no such directory`);
    return;
  }
  if (!st.isDirectory()) throw new Exit(1, 'NOT_FOUND', `${flag} ${dir}: not a directory`);
}

/**
 * The default home directory, when it does not exist: a warning, since a
 * missing home is common (containers, system users) and means "no user
 * skills" (S76). "" when it exists or cannot be checked.
 * @param {string} dir
 */
function missingHomeWarning(dir) {
  try {
    fs.statSync(dir);
    return '';
  } catch (e) {
    if (e.code !== 'ENOENT') return '';
  }
  return `warning: the home directory ${safe(dir)} does not exist: no user-level skills (pass --home)\n`;
}

/** A default the runtime must be asked for; a refusal (Deno's permissions) says how to do without it. */
function processDir(flag, what, grant, get) {
  try {
    return get();
  } catch (e) {
    throw new Exit(1, 'INVALID_ARGUMENT', `no ${flag} given and the runtime refused ${what}: pass ${flag}, or grant it (Deno: ${grant}): ${e.message}`);
  }
}

/**
 * The discovery options with --untrusted applied (SPEC S68): trustedProject
 * false over the settings file's options. Options that are not an object are
 * passed on as they are, for the engine to refuse.
 */
function withTrust(options, untrusted) {
  if (!untrusted) return options;
  if (options === undefined || options === null) return { trustedProject: false };
  if (typeof options !== 'object' || Array.isArray(options)) return options;
  return { ...options, trustedProject: false };
}

/**
 * The load context the flags give (SPEC S1): the requests of every command
 * that discovers are built on it, and mcp serves it. A flag that changes
 * what a discovery loads adds its field here, once.
 */
function loadContext(values) {
  for (const f of ['cwd', 'home']) if (values[f] !== undefined) checkUTF8Path(`--${f}`, values[f]);
  const ctx = {
    cwd: path.resolve(values.cwd ?? processDir('--cwd', 'the working directory', 'read access to it', () => process.cwd())),
    home: path.resolve(values.home ?? processDir('--home', 'the home directory', '--allow-sys=homedir', () => os.homedir())),
    options: withTrust(values.settings !== undefined ? readSettings(values.settings) : undefined, values.untrusted),
  };
  if (values.agent !== undefined) ctx.options = { ...ctx.options, agents: values.agent };
  // The defaults too: the working directory's name may not be UTF-8 (pass --cwd), nor $HOME (pass --home).
  if (values.cwd === undefined) checkUTF8Path('the working directory (pass --cwd)', ctx.cwd);
  if (values.home === undefined) checkUTF8Path('the home directory (pass --home)', ctx.home);
  // S76: a directory the user named must be there; a missing default home is a warning (main).
  if (values.cwd !== undefined) checkDir('--cwd', ctx.cwd);
  if (values.home !== undefined) checkDir('--home', ctx.home);
  return ctx;
}

/**
 * The requests for a command. Paths given as arguments are relative to the
 * shell's directory, but match's, which are relative to --cwd (S76).
 */
function requests(command, args, values) {
  // validate needs no load context: asking for it would make Deno require
  // --allow-sys=homedir for nothing (least privilege).
  if (command === 'validate') {
    for (const dir of args) checkUTF8Path('validate', dir);
    return args.map((dir) => ({ op: 'validate', dir: path.resolve(dir) }));
  }
  if (command === 'agents') return [{ op: 'agents' }];
  if (command === 'where') checkUTF8Path('where', args[0]);
  if (command === 'match') for (const p of args) checkUTF8Path('match', p);
  const ctx = loadContext(values);
  switch (command) {
    case 'list':
      return [{ op: 'discover', ...ctx }];
    case 'read':
      return [{ op: 'resolve', ...ctx, url: args[0] }];
    case 'files':
      return [{ op: 'listFiles', ...ctx, name: args[0] }];
    case 'prompt':
      return [{
        op: 'renderPrompt',
        ...ctx,
        format: values.format,
        readTool: values['no-read-tool'] ? false : undefined,
        maxChars: values['max-chars'] !== undefined ? Number(values['max-chars']) : undefined,
      }];
    case 'expand':
      return [{ op: 'expandCommand', ...ctx, text: args[0] }];
    case 'commands':
      return [{ op: 'commands', ...ctx }];
    case 'context':
      return [{ op: 'contextFiles', ...ctx }];
    case 'explain':
      return [{ op: 'explain', ...ctx, name: args[0] }];
    case 'match':
      return [{ op: 'match', ...ctx, paths: args.map((a) => path.resolve(ctx.cwd, a)) }];
    case 'activate':
      return [{ op: 'activate', ...ctx, name: args[0] }];
    case 'tool':
      return [{ op: 'toolDefinition', ...ctx }];
    case 'where':
      return [{ op: 'where', ...ctx, dir: path.resolve(args[0]) }];
  }
  return [];
}

/**
 * SPEC S66: a request that uses the agent table (options.agents, or where)
 * gets the process's values of the environment variables the table reads,
 * unless its options (--settings) set env. Deno without --allow-env: none.
 * @param {{call: (r: object) => Promise<string>}} engine
 */
async function withAgentEnv(engine, req) {
  const uses = req.op === 'where' || (req.options?.agents?.length ?? 0) > 0;
  if (!uses || req.options?.env != null) return req;
  const table = JSON.parse(await engine.call({ op: 'agents' }));
  const env = {};
  try {
    for (const name of new Set(table.agents.flatMap((a) => a.env))) {
      if (typeof process.env[name] === 'string') env[name] = process.env[name];
    }
  } catch {
    return req; // the runtime refuses the environment (least privilege)
  }
  return { ...req, options: { ...req.options, env } };
}

/** The width to cut table cells to: the terminal's, or $COLUMNS; 0 for no cut. */
function termWidth(wide) {
  if (wide) return 0;
  let env = NaN;
  try {
    env = Number(process.env.COLUMNS);
  } catch {
    // Deno without --allow-env: the terminal's width only (least privilege)
  }
  if (Number.isInteger(env) && env > 0) return env;
  return process.stdout.isTTY ? process.stdout.columns || 0 : 0;
}

/** s cut to at most room characters (code points), the last one "…". */
function cut(s, room) {
  const chars = [...s];
  return room > 0 && chars.length > room ? chars.slice(0, Math.max(room - 1, 0)).join('') + '…' : s;
}

/**
 * Rows as an aligned table of safe cells; the last column is not padded, and
 * is cut to the width left (at least 20 characters) when width is not 0.
 */
function table(header, rows, width = 0) {
  const all = [header, ...rows].map((r) => r.map(safe));
  const last = header.length - 1;
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...r[i]].length)));
  const used = widths.slice(0, last).reduce((a, w) => a + w + 2, 0);
  return (
    all
      .map((r, n) =>
        r
          .map((c, i) => (i < last ? c.padEnd(widths[i] + c.length - [...c].length) : n > 0 && width ? cut(c, Math.max(20, width - used)) : c))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

const oneLine = (s) => String(s).replace(/\s+/g, ' ').trim();
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Warnings, one a line, for stderr: the message, with the file when the
 * message does not name it, and the fix (S73) when the message does not
 * hold it already.
 */
function warningsText(warnings) {
  return (warnings ?? [])
    .map((w) => {
      const where = w.path || w.skillPath;
      let line = where && !w.message.includes(where) ? `warning: ${safe(where)}: ${safe(w.message)}` : `warning: ${safe(w.message)}`;
      if (w.fix && !w.message.includes(w.fix)) line += `; ${safe(w.fix)}`;
      return line + '\n';
    })
    .join('');
}

// Why a skill was not loaded (SPEC S27, S43), in a few words.
const REASONS = {
  name: 'name taken',
  realpath: 'same file loaded',
  disabled: 'disabled',
  'source-off': 'source off',
  ignored: 'ignored',
  'not-included': 'not included',
  'link-outside': 'links outside its skill',
  untrusted: 'project not trusted',
};
const reasonWords = (sh) => {
  const words = REASONS[sh.reason] ?? sh.reason;
  return sh.winner ? `${words} by ${sh.winner}` : words;
};

/** Human output of list: [stdout, stderr]. */
function listText(r, values) {
  const width = termWidth(values.wide);
  let s = '';
  const rows = r.skills.map((k) => [k.name, k.source, oneLine(k.description)]);
  if (values.all) {
    for (const sh of r.shadowed) rows.push([sh.name, sh.source, `(not loaded: ${reasonWords(sh)})`]);
    rows.sort((a, b) => (a[0].toLowerCase() < b[0].toLowerCase() ? -1 : a[0].toLowerCase() > b[0].toLowerCase() ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  if (rows.length) s = table(['NAME', 'SOURCE', 'DESCRIPTION'], rows, width);
  s += plural(r.skills.length, 'skill');
  if (r.shadowed.length) {
    s += `, ${r.shadowed.length} not loaded`;
    if (values.all) {
      s += ' (skilldex explain <name>)\n';
    } else {
      s += ' (skilldex explain <name>; list --all shows them):\n';
      const byReason = new Map();
      for (const sh of r.shadowed) {
        const key = REASONS[sh.reason] ?? sh.reason;
        if (!byReason.has(key)) byReason.set(key, []);
        byReason.get(key).push(sh.name);
      }
      for (const [reason, names] of byReason) {
        const line = `  ${safe(reason)} (${names.length}): ${[...new Set(names)].map(safe).join(', ')}`;
        s += (width ? cut(line, width) : line) + '\n';
      }
    }
  } else {
    s += '\n';
  }
  return [s, warningsText(r.warnings)];
}

/** Content for stdout: escaped when stdout is a terminal, exact otherwise. */
const content = (s) => (process.stdout.isTTY ? safeText(s) : s);
const withNewline = (s) => (s && !s.endsWith('\n') ? s + '\n' : s);

/** Human output for a successful reply; returns [stdout, stderr, status]. */
function human(command, r, args, values) {
  switch (command) {
    case 'list':
      return [...listText(r, values), 0];
    case 'read':
      return [content(r.content), '', 0];
    case 'files':
      return [r.files.map((f) => safe(f) + '\n').join(''), '', 0];
    case 'prompt': {
      let err = '';
      if (r.omitted.length) err += `note: omitted ${r.omitted.map(safe).join(', ')}\n`;
      if (r.shortened.length) err += `note: shortened ${r.shortened.map(safe).join(', ')}\n`;
      return [content(withNewline(r.text)), err, 0];
    }
    case 'expand':
      return [content(withNewline(r === null ? args[0] : r.message)), '', 0];
    case 'commands':
      return [
        r.commands.length ? table(['COMMAND', 'DESCRIPTION'], r.commands.map((c) => ['/' + c.name, oneLine(c.description)]), termWidth(values.wide)) : '',
        r.commands.length ? '' : 'no skill commands\n',
        0,
      ];
    case 'context':
      return [
        r.files.map((f) => `==> ${safe(f.path)} (${f.level}${f.depth === null ? '' : `, depth ${f.depth}`}) <==\n${content(withNewline(f.content))}`).join('\n'),
        r.files.length ? '' : 'no context files\n',
        0,
      ];
    case 'match': {
      // The reply names the absolute paths sent; show them as typed.
      const typed = new Map(args.map((/** @type {string} */ a) => [path.resolve(values.cwd ?? process.cwd(), a), a]));
      const rows = r.skills.map((/** @type {any} */ m) => [m.name, m.reason, m.paths.map((/** @type {string} */ p) => typed.get(p) ?? p).join(' ')]);
      const s = rows.length ? table(['NAME', 'REASON', 'PATHS'], rows) : 'no skill applies\n';
      return [s, warningsText(r.warnings).trimStart(), 0];
    }
    case 'activate':
      return [content(withNewline(r.content)), '', 0];
    case 'tool':
      return r === null ? ['', 'no skill can be activated: no tool\n', 0] : [content(JSON.stringify(r, null, 2) + '\n'), '', 0];
    case 'agents':
      return [
        table(['ID', 'NAME', 'PROJECT', 'USER'], r.agents.map((a) => [
          a.id,
          a.displayName,
          a.projectDirs.join(' ') + (a.projectWalk === 'ancestors' ? ' (up to the repository root)' : ''),
          a.userDirs.join(' '),
        ]), termWidth(values.wide)) + `${plural(r.agents.length, 'agent')} (--json: every field, with the pages each row comes from)\n`,
        '',
        0,
      ];
    case 'where': {
      const reached = r.agents.filter((a) => a.filePath !== undefined);
      const rows = reached.map((a) => [
        a.agent,
        a.loaded ? 'loaded' : 'not loaded',
        a.name,
        a.loaded ? a.filePath : `${reasonWords(a)} (${a.filePath})`,
      ]);
      let s = `${safe(r.dir)}\n`;
      if (rows.length) s += table(['AGENT', 'OUTCOME', 'NAME', 'VIA'], rows);
      const loaded = reached.filter((a) => a.loaded).length;
      s += `${plural(loaded, 'agent')} load it, ${reached.length - loaded} reach it and do not`;
      const rest = r.agents.filter((a) => a.filePath === undefined).map((a) => a.agent);
      s += rest.length ? `; not in the folders of ${rest.map(safe).join(', ')}\n` : '\n';
      return [s, '', 0];
    }
    case 'explain': {
      let s = r.winner ? `${safe(r.name)}: loaded from ${safe(r.winner.filePath)} (${safe(r.winner.source)})\n` : `${safe(r.name)}: not loaded\n`;
      if (r.candidates.length) {
        s += '\n' + table(['OUTCOME', 'SOURCE', 'FILE', 'REASON'], r.candidates.map((c) => [c.outcome, c.source, c.filePath, c.reason ?? '']));
      }
      return [s, '', 0];
    }
  }
  return ['', '', 0];
}

/**
 * A validated directory as the person wrote it: the engine works on
 * absolute paths, and dir lies in (or is) the directory typed as arg,
 * resolved to base. A SKILL.md typed stands for its folder (S75).
 */
function shown(dir, arg, base) {
  if (dir === path.dirname(base) && path.basename(base).toLowerCase() === 'skill.md') {
    return arg.includes('/') ? arg.slice(0, arg.lastIndexOf('/')) || '/' : '.';
  }
  if (dir !== base && !dir.startsWith(base + '/')) return dir;
  const typed = arg.length > 1 ? arg.replace(/\/+$/, '') : arg;
  return typed + dir.slice(base.length);
}

/**
 * Human output of validate for the replies (one per directory given): one
 * block per skill, then the summary line. Returns [stdout, stderr, status].
 */
function validateText(replies, args, reqs) {
  let s = '';
  let err = '';
  let skills = 0;
  let errors = 0;
  let warnings = 0;
  const block = (v, i) => {
    skills++;
    const e = v.diagnostics.filter((d) => d.severity === 'error').length;
    const w = v.diagnostics.filter((d) => d.severity === 'warning').length;
    errors += e;
    warnings += w;
    const counts = [e && plural(e, 'error'), w && plural(w, 'warning')].filter(Boolean).join(', ');
    s += `${safe(shown(v.dir, args[i], reqs[i].dir))}: ${counts || 'ok'}\n`;
    if (v.diagnostics.length) {
      const rows = v.diagnostics.map((d) => [d.severity, d.line === undefined ? '-' : String(d.line), d.code, oneLine(d.message)]);
      s += table(['', '', '', ''], rows).split('\n').slice(1).map((l) => (l ? '  ' + l : l)).join('\n');
    }
  };
  let failed = false;
  for (const [i, r] of replies.entries()) {
    if (isError(r)) {
      failed = true;
      err += `skilldex: ${errorText(r.error.code, r.error.message)}\n`;
      continue;
    }
    if (r.skills) {
      for (const v of r.skills) block(v, i);
    } else {
      block(r, i);
    }
  }
  s += `${plural(skills, 'skill')} checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`;
  return [s, err, errors || failed ? 1 : 0];
}

const ERROR_START = Buffer.from('{"error":');
/** Whether a reply's bytes are an error object (its first key is "error"). */
const isErrorReply = (/** @type {Uint8Array} */ b) => b.length >= ERROR_START.length && ERROR_START.equals(b.subarray(0, ERROR_START.length));
const isError = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v)[0] === 'error';
const hasErrors = (v) =>
  v.diagnostics.some((d) => d.severity === 'error') || (v.skills ?? []).some((c) => c.diagnostics.some((d) => d.severity === 'error'));

/**
 * V8's flag for the module's compilation hints (wasm/ABI.md#the-module,
 * internal/wasmhints): the functions a first discovery calls are then
 * compiled with the module, on V8's background threads too, instead of one
 * by one on the main thread as the call reaches them (under
 * Node 20, a `list --json` run about 6% shorter on the example workspace,
 * 3% on 1,000 skills). Set only where V8 is known to have the flag (V8
 * 11-13: Node 20-24): another V8 would print an error for an unknown flag.
 */
function compilationHints() {
  const major = Number(process.versions.v8.split('.')[0]);
  return major >= 11 && major <= 13 ? ' --experimental-wasm-compilation-hints' : '';
}

/**
 * The engine module, compiled here (our Node process only) with a
 * synchronous read and compile: the facade's asynchronous ones took a
 * one-shot run at 1,000 skills about 650 more page faults.
 * An earlier version freed the bytes at once with a young-generation
 * collection, to raise glibc's heap trim threshold; with V8's tier-up off
 * the pages it saved are not faulted in any more, and the collection only
 * cost its 5 ms (docs/PERF-NOTES.md).
 * @param {typeof import('../src/platform/node.js')} platform
 * @returns {WebAssembly.Module | undefined}
 */
function compileModule({ loadWasmSync, wasmURL }) {
  try {
    return new WebAssembly.Module(loadWasmSync(wasmURL));
  } catch {
    return undefined; // the facade loads it, and says what is wrong
  }
}

const packageVersion = () => JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/**
 * skilldex mcp: the MCP server (src/mcp.js, docs/MCP.md) on stdin and
 * stdout until the client closes stdin; what it has to say goes to stderr,
 * one line each, escaped. Only this command loads src/mcp.js and the MCP
 * SDK. The engine loads its module as the library does (no one-shot V8
 * flags: the server runs for a session).
 */
async function mcp(values) {
  const context = loadContext(values);
  const [platform, { facade }] = await Promise.all([
    import(globalThis.Deno ? '../src/platform/deno.js' : '../src/platform/node.js'),
    import('../src/facade.js'),
  ]);
  const engine = facade(platform)();
  // The module compiles (off this thread) while the SDK loads.
  const compiled = engine.ready();
  compiled.catch(() => {}); // awaited below, after the import
  const { serveMCP } = await import('../src/mcp.js');
  await compiled;
  await serveMCP({
    engine,
    context,
    cwdGiven: values.cwd !== undefined,
    version: packageVersion(),
    stdin: process.stdin,
    stdout: process.stdout,
    log: (line) => out(2, `skilldex mcp: ${safe(line)}\n`),
    maxChars: values['max-chars'] !== undefined ? Number(values['max-chars']) : undefined,
  });
  await engine.close();
  return 0;
}

async function main(argv) {
  let json = argv.includes('--json');
  try {
    const { values, command, args } = parse(argv);
    json = !!values.json;
    if (values.help || command === 'help') return out(1, USAGE + '\n'), 0;
    if (values.version) return out(1, packageVersion() + '\n'), 0;
    if (command === 'mcp') return await mcp(values);
    const reqs = requests(command, args, values);
    if (values.home === undefined && command !== 'validate') {
      const w = missingHomeWarning(reqs[0].home);
      if (w) out(2, w);
    }
    // The facade over this runtime's platform file, both imported here:
    // index.js reaches the platform file through package.json "imports"
    // ('#platform'), which took Node about 3.5 ms to resolve in a one-shot
    // run, and loads MemoryFS, which the CLI does not use.
    const [platform, { facade }] = await Promise.all([
      import(globalThis.Deno ? '../src/platform/deno.js' : '../src/platform/node.js'),
      import('../src/facade.js'),
    ]);
    // Our own process only: a baseline-compiler-only V8 starts the module
    // far sooner for one short run (PERF-NOTES), and it checks each of the
    // shipped module's functions when it first compiles it rather than all
    // of them in WebAssembly.compile (about 10 ms of a run). Never done by
    // the library.
    let wasm; // unset: the facade loads the module itself
    if (!globalThis.Deno && !process.versions.bun) {
      require('node:v8').setFlagsFromString('--liftoff-only --wasm-lazy-validation' + compilationHints());
      wasm = compileModule(platform);
    }
    const engine = facade(platform)({ wasm });
    for (const [i, req] of reqs.entries()) reqs[i] = await withAgentEnv(engine, req);
    if (json && command !== 'validate') {
      // The reply's bytes go to stdout as the module wrote them: decoding
      // a large reply that is not ASCII and encoding it again took a
      // one-shot run 30-50 ms. The engine's reply is compact
      // JSON, its keys in a fixed order: an error is the object whose
      // first key is "error". Not parsing a discover reply only to learn
      // that saves 0.1 s on a 10 MB one (the 720-folder hostile tree).
      const bytes = await engine[Symbol.for('skilldex.callBytes')](JSON.stringify(reqs[0]));
      out(1, bytes);
      out(1, '\n');
      return isErrorReply(bytes) ? 1 : 0;
    }
    const raw = [];
    for (const req of reqs) raw.push(await engine.call(req));

    if (command === 'validate') {
      const replies = raw.map((r) => JSON.parse(r));
      if (json) {
        out(1, '[' + raw.join(',') + ']\n');
        return replies.some((r) => isError(r) || hasErrors(r)) ? 1 : 0;
      }
      const [stdout, stderr, status] = validateText(replies, args, reqs);
      out(1, stdout);
      if (stderr) out(2, stderr);
      return status;
    }

    const [reply] = raw;
    const parsed = JSON.parse(reply);
    if (isError(parsed)) {
      out(2, `skilldex: ${errorText(parsed.error.code, parsed.error.message)}\n`);
      return 1;
    }
    const [stdout, stderr, status] = human(command, parsed, args, values);
    if (stdout) out(1, stdout);
    if (stderr) out(2, stderr);
    return status;
  } catch (e) {
    const status = e instanceof Exit ? e.status : 1;
    const code = e.code && typeof e.code === 'string' ? e.code : 'INTERNAL';
    if (json) {
      out(1, JSON.stringify({ error: { code, message: e.message } }) + '\n');
    } else {
      out(2, `skilldex: ${errorText(code, e.message)}\n`);
      if (status === 2) out(2, 'run skilldex --help for usage\n');
    }
    return status;
  }
}

process.exit(await main(process.argv.slice(2)));
