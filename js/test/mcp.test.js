// `skilldex mcp` (bin/skilldex.mjs, src/mcp.js) as an MCP client runs it:
// the CLI spawned with the runtime running the tests (node, deno, bun) and
// driven over stdio by the MCP SDK's own client, SPEC S77-S80. Every answer
// is compared with what the library gives for the same request. The
// malformed-input test writes raw lines, which the SDK's client cannot send.
// The transcript in docs/MCP.md is the exchange of one test, checked byte
// for byte; SKILLDEX_UPDATE_TRANSCRIPT=1 rewrites it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createSkilldex } from '../index.js';
import { diskWorkspace } from './workspace.js';

const bin = fileURLToPath(new URL('../bin/skilldex.mjs', import.meta.url));
const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const transcriptDoc = fileURLToPath(new URL('../../docs/MCP.md', import.meta.url));

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldex-mcp-')));
after(() => fs.rmSync(root, { recursive: true, force: true }));
diskWorkspace(root);
const cwd = root + '/work/proj';
const home = root + '/home/u';
const ctxArgs = ['--cwd', cwd, '--home', home];

/**
 * The server's command: under Deno with read access to the package and the
 * workspace only, as the CLI's own tests run it (least privilege).
 */
const runner = globalThis.Deno
  ? [globalThis.Deno.execPath(), 'run', '--no-prompt', `--allow-read=${pkgDir},${root}`, bin]
  : [process.execPath, bin];

const engine = createSkilldex();
after(() => engine.close());

const skill = (name, description, body = 'Body.') => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** Write files (relative to dir) and return dir. */
function tree(dir, files) {
  fs.mkdirSync(dir, { recursive: true }); // the CLI refuses a --cwd or --home that is not there (S76)
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), content);
  }
  return dir;
}

/**
 * Start `skilldex mcp` with args under the SDK's client. roots, when
 * given, is {list} (the roots the client announces, changeable). Every
 * message from the server is kept as its JSON text (messages), every
 * notification as an object (notifications).
 * @param {{args?: string[], cwd?: string, roots?: {list: {uri: string, name?: string}[]}, record?: (dir: string, m: unknown) => void}} [opts]
 */
async function startServer(opts = {}) {
  const transport = new StdioClientTransport({
    command: runner[0],
    args: [...runner.slice(1), 'mcp', ...(opts.args ?? ctxArgs)],
    cwd: opts.cwd ?? root,
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  /** @type {string[]} */
  const messages = [];
  transport.onmessage = (m) => {
    messages.push(JSON.stringify(m));
    opts.record?.('←', m);
  };
  if (opts.record) {
    const send = transport.send.bind(transport);
    transport.send = (m, o) => (opts.record?.('→', m), send(m, o));
  }
  const client = new Client({ name: 'skilldex-test', version: '1.0.0' }, { capabilities: opts.roots ? { roots: { listChanged: true } } : {} });
  if (opts.roots) {
    const roots = opts.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.list }));
  }
  /** @type {{method: string, params?: any}[]} */
  const notifications = [];
  /** @type {Set<() => void>} */
  const waiting = new Set();
  client.fallbackNotificationHandler = async (n) => {
    notifications.push(n);
    for (const w of [...waiting]) w();
  };
  await client.connect(transport);
  return {
    client,
    messages,
    notifications,
    stderr: () => stderr,
    /**
     * The first notification of method at or after index from.
     * @param {string} method
     * @param {number} from
     * @param {(n: any) => boolean} [match]
     */
    next(method, from, match = () => true, ms = 15000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const n = notifications.slice(from).find((x) => x.method === method && match(x));
          if (n) {
            waiting.delete(check);
            clearTimeout(timer);
            resolve(n);
          }
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no ${method} within ${ms} ms; got ${JSON.stringify(notifications.slice(from))}; stderr: ${stderr}`));
        }, ms);
        waiting.add(check);
        check();
      });
    },
    close: () => client.close(),
  };
}

/** The McpError a request rejects with. */
async function rpcError(promise) {
  try {
    await promise;
  } catch (e) {
    return /** @type {any} */ (e);
  }
  assert.fail('the request succeeded');
}

// ---- one server over the shared workspace

/** @type {Awaited<ReturnType<typeof startServer>>} */
let shared;
before(async () => {
  shared = await startServer();
});
after(() => shared?.close());

test('S77 initialize: the server, its capabilities, and renderPrompt\'s block as instructions', async () => {
  const { client } = shared;
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  assert.deepEqual(client.getServerVersion(), { name: 'skilldex', version: pkg.version });
  assert.deepEqual(client.getServerCapabilities(), {
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    tools: { listChanged: true },
    completions: {},
  });
  const prompt = await engine.renderPrompt({ cwd, home, maxChars: 8000 });
  assert.ok(prompt.text.includes('## pdf'));
  assert.equal(client.getInstructions(), prompt.text.trimEnd() + '\n\nOver this server, the read tool is read_skill_file, and activate_skill loads a skill by its name.');
});

test('S77 resources: one skill:// resource per loaded skill, as discover gives them; the file template', async () => {
  const { client } = shared;
  const { resources, nextCursor } = await client.listResources();
  assert.equal(nextCursor, undefined);
  const found = await engine.discover({ cwd, home });
  assert.deepEqual(
    resources,
    found.skills.map((s) => ({ uri: `skill://${s.name}`, name: s.name, description: s.description, mimeType: 'text/markdown' })),
  );
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['skill://{name}/{path}']);
});

test('S77 resources/read: the bytes resolve serves, for the skill and for its files', async () => {
  const { client } = shared;
  for (const uri of ['skill://pdf', 'skill://pdf/reference.md', 'skill://pdf/scripts/fill.py', 'skill://pdf/SKILL.md', 'skill://review']) {
    const want = await engine.resolve(uri, { cwd, home });
    const got = await client.readResource({ uri });
    assert.deepEqual(got.contents, [{ uri, mimeType: want.contentType, text: want.content }], uri);
  }
});

test('S77 S80 resources/read errors: JSON-RPC errors carrying the engine\'s code; nothing outside a skill', async () => {
  const { client } = shared;
  const cases = [
    ['skill://pdf/../../.ssh/id_rsa', -32602, 'PATH_TRAVERSAL'],
    ['skill://pdf//etc/passwd', -32602, 'ABSOLUTE_PATH'],
    ['skill://pdf/escape.md', -32602, 'PATH_ESCAPE'],
    ['skill://pdf/missing.md', -32002, 'NOT_FOUND'],
    ['skill://nope', -32002, 'UNKNOWN_SKILL'],
    ['skill://', -32602, 'MISSING_NAME'],
    ['http://pdf', -32602, 'INVALID_URL'],
    ['skill://pdf/%zz', -32602, 'INVALID_URL'],
    ['skill://pdf/' + 'a'.repeat(5000), -32602, 'INVALID_URL'],
  ];
  for (const [uri, code, engineCode] of cases) {
    const e = await rpcError(client.readResource({ uri }));
    const want = await rpcError(engine.resolve(uri, { cwd, home }));
    assert.equal(e.code, code, uri);
    assert.deepEqual(e.data, { code: engineCode }, uri);
    assert.equal(e.message, `MCP error ${code}: ${want.message}`, uri);
  }
});

test('S77 prompts: one per /skill: command; prompts/get is expandCommand\'s message', async () => {
  const { client } = shared;
  const { prompts } = await client.listPrompts();
  const { commands } = await engine.commands({ cwd, home });
  assert.deepEqual(
    prompts,
    commands.map((c) => ({
      name: c.name.slice('skill:'.length),
      description: c.description,
      arguments: [{ name: 'args', description: 'What follows /skill:<name> (optional)', required: false }],
    })),
  );
  for (const [name, args] of [['review', 'the last commit'], ['pdf', ''], ['lint', '  src/ \n tests/ ']]) {
    const got = await client.getPrompt({ name, arguments: args ? { args } : {} });
    const want = await engine.expandCommand(`/skill:${name}${args ? ' ' + args : ''}`, { cwd, home });
    assert.ok(want);
    assert.deepEqual(got.messages, [{ role: 'user', content: { type: 'text', text: want.message } }], name);
  }
  const e = await rpcError(client.getPrompt({ name: 'nope\u001b[2J' }));
  assert.equal(e.code, -32602);
  assert.match(e.message, /Unknown prompt: nope\ufffd\[2J;/);
});

test('S78 tools: activate_skill with the names as an enum, read_skill_file; no tool runs anything', async () => {
  const { client } = shared;
  const { tools } = await client.listTools();
  const found = await engine.discover({ cwd, home });
  assert.deepEqual(tools.map((t) => t.name), ['activate_skill', 'read_skill_file']);
  assert.deepEqual(tools[0].inputSchema.properties?.name, { type: 'string', description: 'The name of the skill to activate.', enum: found.skills.map((s) => s.name) });
  assert.deepEqual(tools[0].inputSchema.required, ['name']);
  for (const t of tools) assert.deepEqual(t.annotations, { readOnlyHint: true, openWorldHint: false });
});

test('S78 activate_skill: the engine\'s activation of the skill (S69), none of it outside the skill', async () => {
  const { client } = shared;
  const r = await client.callTool({ name: 'activate_skill', arguments: { name: 'pdf' } });
  const want = await engine.activate('pdf', { cwd, home });
  assert.equal(r.isError, undefined);
  assert.deepEqual(r.content, [{ type: 'text', text: want.content }]);
  assert.match(want.content, /^<skill_content name="pdf">/);
  assert.deepEqual(want.resources, ['reference.md', 'scripts/fill.py']); // escape.md links out of the skill
  const unknown = await client.callTool({ name: 'activate_skill', arguments: { name: 'pfd' } });
  assert.equal(unknown.isError, true);
  assert.equal(/** @type {any} */ (unknown.structuredContent).error.code, 'UNKNOWN_SKILL');
  assert.match(/** @type {any} */ (unknown.content)[0].text, /^UNKNOWN_SKILL: Unknown skill: pfd\nDid you mean: pdf/);
  const bad = await client.callTool({ name: 'activate_skill', arguments: {} });
  assert.equal(/** @type {any} */ (bad.structuredContent).error.code, 'INVALID_ARGUMENT');
});

test('S78 read_skill_file: resolve\'s text, or a tool error with the engine\'s code', async () => {
  const { client } = shared;
  const ok = await client.callTool({ name: 'read_skill_file', arguments: { url: 'skill://pdf/reference.md' } });
  assert.deepEqual(ok.content, [{ type: 'text', text: '# PDF reference\n' }]);
  for (const [url, code] of [['skill://pdf/escape.md', 'PATH_ESCAPE'], ['skill://pdf/../x', 'PATH_TRAVERSAL'], ['/etc/passwd', 'INVALID_URL']]) {
    const r = await client.callTool({ name: 'read_skill_file', arguments: { url } });
    const want = await rpcError(engine.resolve(url, { cwd, home }));
    assert.equal(r.isError, true, url);
    assert.deepEqual(r.structuredContent, { error: { code, message: want.message } }, url);
    assert.deepEqual(r.content, [{ type: 'text', text: `${code}: ${want.message}` }], url);
  }
  const e = await rpcError(client.callTool({ name: 'run_script', arguments: {} }));
  assert.equal(e.code, -32602);
});

test('S77 completion: skill names and the files of a skill for the template', async () => {
  const { client } = shared;
  const names = await client.complete({ ref: { type: 'ref/resource', uri: 'skill://{name}/{path}' }, argument: { name: 'name', value: 'p' } });
  assert.deepEqual(names.completion, { values: ['pdf'], total: 1, hasMore: false });
  const files = await client.complete({
    ref: { type: 'ref/resource', uri: 'skill://{name}/{path}' },
    argument: { name: 'path', value: 'sc' },
    context: { arguments: { name: 'pdf' } },
  });
  assert.deepEqual(files.completion, { values: ['scripts/fill.py'], total: 1, hasMore: false });
});

test('S80 no stray output: every server message is JSON-RPC, the secret a link points to never sent', () => {
  const secret = fs.readFileSync(cwd + '/XCSH.md', 'utf8').trim();
  assert.ok(shared.messages.length > 10);
  for (const m of shared.messages) {
    assert.equal(JSON.parse(m).jsonrpc, '2.0');
    assert.ok(!m.includes(secret), m);
  }
});

// ---- pagination, the instructions bound

test('S77 resources/list and prompts/list are paginated, 100 a page', async () => {
  const dir = path.join(root, 'many');
  /** @type {Record<string, string>} */
  const files = {};
  for (let i = 0; i < 250; i++) {
    const n = 's' + String(i).padStart(3, '0');
    files[`home/.claude/skills/${n}/SKILL.md`] = skill(n, `Skill number ${i}`);
  }
  tree(dir, files);
  fs.mkdirSync(dir + '/proj', { recursive: true });
  const s = await startServer({ args: ['--cwd', dir + '/proj', '--home', dir + '/home', '--max-chars', '300'] });
  try {
    for (const [list, key] of [[(/** @type {any} */ p) => s.client.listResources(p), 'resources'], [(/** @type {any} */ p) => s.client.listPrompts(p), 'prompts']]) {
      /** @type {string[]} */
      const names = [];
      /** @type {(string | undefined)[]} */
      const cursors = [];
      let cursor;
      do {
        const r = await list(cursor === undefined ? {} : { cursor });
        assert.ok(r[key].length <= 100);
        names.push(...r[key].map((/** @type {any} */ x) => x.name));
        cursor = r.nextCursor;
        cursors.push(cursor);
      } while (cursor !== undefined);
      assert.deepEqual(cursors, ['100', '200', undefined], key);
      assert.deepEqual(names, Object.keys(files).map((f) => f.split('/')[3]), key);
    }
    const e = await rpcError(s.client.listResources({ cursor: 'abc' }));
    assert.equal(e.code, -32602);
    // --max-chars bounds the instructions (S53 cuts them).
    const instructions = s.client.getInstructions() ?? '';
    const prompt = await engine.renderPrompt({ cwd: dir + '/proj', home: dir + '/home', maxChars: 300 });
    assert.ok(prompt.omitted.length > 200);
    assert.ok(instructions.startsWith(prompt.text.trimEnd()));
    assert.match(s.stderr(), /instructions: \d+ skills left out to stay within 300 characters/);
  } finally {
    await s.close();
  }
});

// ---- roots

test('S79 roots: discovery runs per root, and a roots change brings a new one', async () => {
  const ws = path.join(root, 'roots');
  const a = tree(ws + '/a', { '.claude/skills/alpha/SKILL.md': skill('alpha', 'Alpha'), '.claude/skills/shared/SKILL.md': skill('shared', 'From a') });
  const b = tree(ws + '/b', { '.claude/skills/beta/SKILL.md': skill('beta', 'Beta'), '.claude/skills/shared/SKILL.md': skill('shared', 'From b') });
  fs.mkdirSync(ws + '/a/.git');
  fs.mkdirSync(ws + '/b/.git');
  const empty = tree(ws + '/empty', { 'README.md': 'no skills here' });
  const rhome = tree(ws + '/home', { '.claude/skills/mine/SKILL.md': skill('mine', 'Mine') });
  const roots = { list: [{ uri: pathToFileURL(a).href }, { uri: pathToFileURL(b).href }, { uri: pathToFileURL(ws + '/gone').href }] };
  // No --cwd: the first root is the cwd; the server starts in a folder without skills.
  const s = await startServer({ args: ['--home', rhome], cwd: empty, roots });
  try {
    const names = async () => (await s.client.listResources()).resources.map((r) => `${r.name}: ${r.description}`);
    await s.next('notifications/resources/list_changed', 0);
    // A name two roots hold stays with the first root.
    assert.deepEqual(await names(), ['alpha: Alpha', 'beta: Beta', 'mine: Mine', 'shared: From a']);
    const read = await s.client.readResource({ uri: 'skill://beta' });
    assert.equal(read.contents[0].text, skill('beta', 'Beta'));

    const mark = s.notifications.length;
    roots.list = [{ uri: pathToFileURL(b).href }];
    await s.client.sendRootsListChanged();
    await s.next('notifications/resources/list_changed', mark);
    assert.deepEqual(await names(), ['beta: Beta', 'mine: Mine', 'shared: From b']);
    await s.next('notifications/tools/list_changed', mark);
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools[0].inputSchema.properties?.name.enum, ['beta', 'mine', 'shared']);
  } finally {
    await s.close();
  }

  // With --cwd, that directory comes first and the roots after it.
  const pinned = await startServer({ args: ['--cwd', b, '--home', rhome], cwd: empty, roots: { list: [{ uri: pathToFileURL(a).href }] } });
  try {
    await pinned.next('notifications/resources/list_changed', 0);
    const listed = (await pinned.client.listResources()).resources.map((r) => `${r.name}: ${r.description}`);
    assert.deepEqual(listed, ['alpha: Alpha', 'beta: Beta', 'mine: Mine', 'shared: From b']);
  } finally {
    await pinned.close();
  }
});

// ---- live changes

test('S79 live: an edit of the skills sends list_changed within the watch\'s debounce; a body edit updates subscribers', async () => {
  const ws = path.join(root, 'live');
  const lhome = tree(ws + '/home', { '.claude/skills/alpha/SKILL.md': skill('alpha', 'First words') });
  fs.mkdirSync(ws + '/proj/.git', { recursive: true });
  const s = await startServer({ args: ['--cwd', ws + '/proj', '--home', lhome] });
  try {
    await s.client.subscribeResource({ uri: 'skill://alpha' });
    const alpha = lhome + '/.claude/skills/alpha/SKILL.md';
    // Each edit lands whole (a rename over the file), so no discovery can see it half written.
    const edit = (/** @type {string} */ text) => {
      fs.writeFileSync(alpha + '.new', text);
      fs.renameSync(alpha + '.new', alpha);
    };

    // A description: resources and prompts change, the tools (names only) do not.
    let mark = s.notifications.length;
    let start = Date.now();
    edit(skill('alpha', 'Second words'));
    await s.next('notifications/resources/list_changed', mark);
    await s.next('notifications/prompts/list_changed', mark);
    await s.next('notifications/resources/updated', mark, (n) => n.params.uri === 'skill://alpha');
    const took = Date.now() - start;
    assert.ok(took < 5000, `list_changed after ${took} ms`);
    assert.equal((await s.client.listResources()).resources[0].description, 'Second words');
    assert.ok(!s.notifications.slice(mark).some((n) => n.method === 'notifications/tools/list_changed'));

    // The body only: the lists stay, the subscriber hears (S59).
    mark = s.notifications.length;
    edit(skill('alpha', 'Second words', 'A new body.'));
    await s.next('notifications/resources/updated', mark, (n) => n.params.uri === 'skill://alpha');
    assert.deepEqual(s.notifications.slice(mark).map((n) => n.method), ['notifications/resources/updated']);
    assert.match((await s.client.readResource({ uri: 'skill://alpha' })).contents[0].text, /A new body\./);

    // A new skill: every list changes, the enum has it.
    mark = s.notifications.length;
    start = Date.now();
    tree(lhome, { '.claude/skills/beta/SKILL.md': skill('beta', 'Beta') });
    await s.next('notifications/tools/list_changed', mark);
    await s.next('notifications/resources/list_changed', mark);
    await s.next('notifications/prompts/list_changed', mark);
    assert.ok(Date.now() - start < 5000);
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools[0].inputSchema.properties?.name.enum, ['alpha', 'beta']);
  } finally {
    await s.close();
  }
});

// ---- a hostile workspace

test('S80 an attacker\'s workspace: links out, huge files, control characters, all answered within the bounds', async () => {
  const ws = path.join(root, 'hostile');
  const secret = 'SECRET-' + 'x'.repeat(20);
  tree(ws, { 'secret.txt': secret + '\n' });
  const proj = ws + '/proj';
  fs.mkdirSync(proj + '/.git', { recursive: true });
  tree(proj + '/.claude/skills', {
    'evil/SKILL.md': `---\nname: "ev\\x01il"\ndescription: "clear \\e[2J bell \\a next \\x85 line\\nbreak"\n---\nBody.\n`,
    'huge/SKILL.md': skill('huge', 'x'.repeat(10000)),
    'links/SKILL.md': skill('links', 'Links out'),
  });
  // A SKILL.md that is a link out of the repository, a file linked out of its skill, a 9 MiB file.
  fs.mkdirSync(proj + '/.claude/skills/leak');
  fs.symlinkSync(ws + '/secret.txt', proj + '/.claude/skills/leak/SKILL.md');
  fs.symlinkSync(ws + '/secret.txt', proj + '/.claude/skills/links/out.md');
  fs.symlinkSync(ws, proj + '/.claude/skills/links/outdir');
  fs.writeFileSync(proj + '/.claude/skills/huge/big.md', Buffer.alloc(9 << 20, 'a'));
  const hhome = tree(ws + '/home', {});
  const s = await startServer({ args: ['--cwd', proj, '--home', hhome] });
  try {
    const { resources } = await s.client.listResources();
    assert.deepEqual(resources.map((r) => r.name), ['ev\ufffdil', 'huge', 'links']);
    // Control characters are U+FFFD (S45); a description keeps 4096 characters.
    assert.equal(resources[0].description, 'clear \ufffd[2J bell \ufffd next \ufffd line\nbreak');
    assert.equal(resources[1].description.length, 4096);
    assert.equal(resources[0].uri, 'skill://ev%EF%BF%BDil');
    const evil = await s.client.readResource({ uri: resources[0].uri });
    assert.match(evil.contents[0].text, /^---\nname: "ev\\x01il"/);

    const err = async (/** @type {string} */ uri) => (await rpcError(s.client.readResource({ uri }))).data.code;
    assert.equal(await err('skill://leak'), 'UNKNOWN_SKILL');
    assert.equal(await err('skill://links/out.md'), 'PATH_ESCAPE');
    assert.equal(await err('skill://links/outdir/secret.txt'), 'PATH_ESCAPE');
    assert.equal(await err('skill://huge/big.md'), 'TOO_LARGE');
    const big = await s.client.callTool({ name: 'read_skill_file', arguments: { url: 'skill://huge/big.md' } });
    assert.equal(/** @type {any} */ (big.structuredContent).error.code, 'TOO_LARGE');

    const act = await s.client.callTool({ name: 'activate_skill', arguments: { name: 'links' } });
    const text = /** @type {any} */ (act.content)[0].text;
    assert.ok(!text.includes('out.md') && !text.includes('outdir'), text);

    for (const m of s.messages) {
      assert.ok(!m.includes(secret), m.slice(0, 200));
      assert.ok(m.length < 9 << 20);
      assert.doesNotMatch(m, /[\u0000-\u001f]/); // JSON escapes every control character
    }
  } finally {
    await s.close();
  }
});

// ---- malformed input, raw

/** The server on raw pipes: send lines, wait for replies. */
function rawServer(/** @type {string[]} */ args) {
  const child = spawn(runner[0], [...runner.slice(1), 'mcp', ...args], { cwd: root, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  /** @type {any[]} */
  const replies = [];
  /** @type {Set<() => void>} */
  const waiting = new Set();
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
    }
    for (const w of [...waiting]) w();
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    /** @param {string} line */
    write: (line) => child.stdin.write(line),
    /** The reply n (0-based) once it has come. */
    reply(/** @type {number} */ n) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (replies.length > n) {
            waiting.delete(check);
            clearTimeout(timer);
            resolve(replies[n]);
          }
        };
        const timer = setTimeout(() => reject(new Error(`no reply ${n}; got ${JSON.stringify(replies)}`)), 15000);
        waiting.add(check);
        check();
      });
    },
    async end() {
      child.stdin.end();
      return exited;
    },
  };
}

test('S80 malformed requests get a JSON-RPC error and the server goes on', async () => {
  const s = rawServer(ctxArgs);
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  s.write(JSON.stringify(init) + '\n');
  assert.equal((await s.reply(0)).result.serverInfo.name, 'skilldex');
  s.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const cases = [
    ['not json\n', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line is not JSON; send one JSON-RPC message per line' } }],
    ['[]\n', { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches are not supported; send one message per line' } }],
    ['{"jsonrpc":"2.0","id":7,"method":5}\n', { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response' } }],
    ['{"jsonrpc":"1.0","id":"x","method":"ping"}\n', { jsonrpc: '2.0', id: 'x', error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response' } }],
    ['{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":42}}\n', { jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'Invalid params for resources/read: params.uri: Invalid input: expected string, received number' } }],
    ['{"jsonrpc":"2.0","id":9,"method":"no/such"}\n', { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found: no/such' } }],
    ['{"jsonrpc":"2.0","id":10,"method":"prompts/get","params":{"name":"pdf","arguments":{"args":7}}}\n', null],
    // Over 1 MiB in three writes, then a request on the same line's tail: skipped, answered once.
    ['{"jsonrpc":"2.0","id":11,"method":"ping","params":{"pad":"' + 'a'.repeat(600 << 10), null],
    ['a'.repeat(600 << 10), null],
    ['"}}\n', { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a message is longer than 1048576 bytes; the server skips it (send shorter messages, one per line)' } }],
    ['\n\r\n   \n{"jsonrpc":"2.0","id":12,"method":"ping"}\r\n', { jsonrpc: '2.0', id: 12, result: {} }],
  ];
  let n = 1;
  for (const [line, want] of cases) {
    s.write(/** @type {string} */ (line));
    if (want === null) {
      if (/** @type {string} */ (line).startsWith('{"jsonrpc":"2.0","id":10')) {
        const r = await s.reply(n++);
        assert.equal(r.id, 10);
        assert.equal(r.error.code, -32602);
      }
      continue;
    }
    assert.deepEqual(await s.reply(n++), want, /** @type {string} */ (line).slice(0, 60));
  }
  // Still serving.
  s.write('{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{"uri":"skill://pdf/reference.md"}}\n');
  assert.deepEqual(await s.reply(n++), { jsonrpc: '2.0', id: 13, result: { contents: [{ uri: 'skill://pdf/reference.md', mimeType: 'text/markdown', text: '# PDF reference\n' }] } });
  assert.equal(await s.end(), 0);
});

test('S80 usage: mcp takes no argument and no --json', () => {
  for (const args of [['mcp', 'x'], ['mcp', '--json'], ['list', '--max-chars', '5']]) {
    const r = spawnSync(runner[0], [...runner.slice(1), ...args, ...ctxArgs], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.equal(r.status, 2, args.join(' ') + ': ' + r.stderr);
  }
});

// ---- the transcript in docs/MCP.md

const TRANSCRIPT_START = '<!-- transcript: written by js/test/mcp.test.js; SKILLDEX_UPDATE_TRANSCRIPT=1 node --test js/test/mcp.test.js rewrites it -->';
const TRANSCRIPT_END = '<!-- end of transcript -->';

test('S77 S78 the transcript in docs/MCP.md is this exchange, byte for byte', async () => {
  /** @type {string[]} */
  const blocks = [];
  const record = (/** @type {string} */ dir, /** @type {unknown} */ m) => {
    const json = JSON.stringify(m, null, 2).split(root).join('');
    blocks.push(`${dir === '→' ? '// client → server' : '// server → client'}\n${json}`);
  };
  const s = await startServer({ record });
  try {
    await s.client.listResources();
    await s.client.listResourceTemplates();
    await s.client.readResource({ uri: 'skill://pdf/reference.md' });
    await s.client.listPrompts();
    await s.client.getPrompt({ name: 'review', arguments: { args: 'the last commit' } });
    await s.client.listTools();
    await s.client.callTool({ name: 'activate_skill', arguments: { name: 'review' } });
    await s.client.callTool({ name: 'read_skill_file', arguments: { url: 'skill://pdf/escape.md' } });
    await rpcError(s.client.readResource({ uri: 'skill://pdf/../../.ssh/id_rsa' }));
  } finally {
    await s.close();
  }
  const section = `${TRANSCRIPT_START}\n\n\`\`\`jsonc\n${blocks.join('\n\n')}\n\`\`\`\n\n${TRANSCRIPT_END}`;
  const doc = fs.readFileSync(transcriptDoc, 'utf8');
  const start = doc.indexOf(TRANSCRIPT_START);
  const end = doc.indexOf(TRANSCRIPT_END);
  assert.ok(start >= 0 && end > start, `docs/MCP.md has no transcript markers`);
  const updated = doc.slice(0, start) + section + doc.slice(end + TRANSCRIPT_END.length);
  if (process.env.SKILLDEX_UPDATE_TRANSCRIPT === '1') {
    fs.writeFileSync(transcriptDoc, updated);
    return;
  }
  assert.equal(doc, updated, 'docs/MCP.md\'s transcript is stale: run SKILLDEX_UPDATE_TRANSCRIPT=1 node --test js/test/mcp.test.js');
});
