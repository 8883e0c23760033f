// The JS API: one test per operation (SPEC section 12 shapes), errors with
// codes, the raw call, defaults of the load context. The exact bytes of
// every operation are the conformance corpus's business
// (conformance.test.js); here the facade's translation is checked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import process from 'node:process';
import { createSkilldex, SkilldexError, MemoryFS, ABI_VERSION } from '../index.js';
import { memoryWorkspace, cwd, home } from './workspace.js';

const sk = createSkilldex({ fs: memoryWorkspace(), cwd, home });

const rejects = async (p, code) => {
  await assert.rejects(p, (e) => {
    assert.ok(e instanceof SkilldexError, `not a SkilldexError: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'SkilldexError');
    assert.equal(e.code, code, e.message);
    return true;
  });
};

test('ABI_VERSION is 6', () => assert.equal(ABI_VERSION, 6));

test('discover: skills, warnings, shadowed (S27)', async () => {
  const r = await sk.discover();
  assert.deepEqual(Object.keys(r), ['skills', 'warnings', 'shadowed', 'digest']);
  assert.match(r.digest, /^[0-9a-f]{16}$/); // S54
  assert.deepEqual(r.skills.map((s) => s.name), ['lint', 'pdf', 'review']);
  const pdf = r.skills.find((s) => s.name === 'pdf');
  assert.equal(pdf.source, 'native:user');
  assert.equal(pdf.filePath, '/home/u/.xcsh/agent/skills/pdf/SKILL.md');
  assert.deepEqual(pdf.frontmatter, { name: 'pdf', description: 'Read and fill PDF forms' });
  assert.deepEqual(r.shadowed, [
    { name: 'pdf', filePath: '/home/u/.claude/skills/pdf/SKILL.md', source: 'claude:user', reason: 'name', winner: pdf.filePath },
  ]);
});

test('discover: per-call context overrides the defaults (S1, S22)', async () => {
  assert.deepEqual((await sk.discover({ options: { enabled: false } })).skills, []);
  const r = await sk.discover({ cwd: '/' });
  assert.deepEqual(r.skills.map((s) => s.name), ['lint', 'pdf']);
  await rejects(sk.discover({ cwd: 'relative' }), 'INVALID_ARGUMENT');
  await rejects(sk.discover({ options: { notAnOption: true } }), 'INVALID_ARGUMENT');
});

test('discover: no default context with a custom fs (S1)', async () => {
  const bare = createSkilldex({ fs: new MemoryFS() });
  await rejects(bare.discover(), 'INVALID_ARGUMENT');
  // S54: the digest of {"skills":[],"warnings":[],"shadowed":[]} (sha256sum of those bytes, first 16 hex digits).
  assert.deepEqual(await bare.discover({ cwd: '/', home: '/h' }), { skills: [], warnings: [], shadowed: [], digest: '8679df201f14da45' });
});

test('discover: a reply over 128 KiB, ASCII or not, has the value JSON.parse gives the raw reply', async () => {
  // The facade asks for the ASCII transport where it parses faster
  // (platform/*.js asciiReplies; wasm/ABI.md): every non-ASCII character
  // escaped, a surrogate pair above U+FFFF. Node decodes large ASCII
  // replies as Latin-1, padded past 1,031,913 bytes when shorter
  // (platform/node.js replyJSONText). call() gets the canonical reply.
  for (const [count, words, least] of [[300, 'plain words', 128 * 1024], [300, 'café, naïve ✓ 技能 — 😀', 128 * 1024], [1200, 'plain words', 0xfbee9 + 1]]) {
    const m = new MemoryFS();
    for (let i = 0; i < count; i++) m.writeFile(`/h/.claude/skills/s${i}/SKILL.md`, `---\nname: s${i}\ndescription: ${words} ${'x'.repeat(600)}\n---\n`);
    const s = createSkilldex({ fs: m, cwd: '/', home: '/h' });
    const raw = await s.call({ op: 'discover', cwd: '/', home: '/h' });
    assert.ok(new TextEncoder().encode(raw).length > least, `${count} skills: ${raw.length} characters`);
    const value = await s.discover();
    assert.equal(value.skills.length, count);
    assert.equal(value.skills[0].description.startsWith(words), true);
    assert.equal(JSON.stringify(value), JSON.stringify(JSON.parse(raw))); // keys in the same order
    assert.equal(raw, JSON.stringify(JSON.parse(raw)), 'call() returns the reply as it is, with nothing after it');
    assert.equal(raw.includes(words), true, 'call() returns the canonical reply, its characters unescaped');
    const ascii = await s.call('{"op":"discover","cwd":"/","home":"/h","asciiReply":true}');
    assert.match(ascii, /^[\x20-\x7e]*$/, 'the ASCII transport is ASCII');
    assert.equal(JSON.stringify(JSON.parse(ascii)), JSON.stringify(JSON.parse(raw)), 'the ASCII transport has the same value, digest included (S54)');
  }
});

test('scanDir (S28)', async () => {
  const r = await sk.scanDir('/home/u/.claude/skills', { source: 'claude:user' });
  assert.deepEqual(Object.keys(r), ['skills', 'warnings']);
  assert.deepEqual(r.skills.map((s) => [s.name, s.source]), [['lint', 'claude:user'], ['pdf', 'claude:user']]);
  assert.deepEqual((await sk.scanDir('/nowhere')).skills, []);
});

test('resolve (S29-S32)', async () => {
  const r = await sk.resolve('skill://pdf/reference.md');
  assert.deepEqual(r, {
    url: 'skill://pdf/reference.md',
    content: '# PDF reference\n',
    contentType: 'text/markdown',
    size: 16,
    sourcePath: '/home/u/.xcsh/agent/skills/pdf/reference.md',
  });
  assert.equal((await sk.resolve('skill://pdf')).sourcePath, '/home/u/.xcsh/agent/skills/pdf/SKILL.md');
  assert.equal((await sk.resolve('skill://pdf/scripts/fill.py')).contentType, 'text/plain');
  await rejects(sk.resolve('http://pdf'), 'INVALID_URL');
  await rejects(sk.resolve('skill://'), 'MISSING_NAME');
  await rejects(sk.resolve('skill://nope'), 'UNKNOWN_SKILL');
  await rejects(sk.resolve('skill://pdf//etc/passwd'), 'ABSOLUTE_PATH');
  await rejects(sk.resolve('skill://pdf/../lint/SKILL.md'), 'PATH_TRAVERSAL');
  await rejects(sk.resolve('skill://pdf/%2e%2e/x'), 'PATH_TRAVERSAL');
  await rejects(sk.resolve('skill://pdf/escape.md'), 'PATH_ESCAPE');
  await rejects(sk.resolve('skill://pdf/missing.md'), 'NOT_FOUND');
});

test('resolve: the error message is the engine\'s (S30)', async () => {
  await assert.rejects(sk.resolve('skill://nope'), { message: 'Unknown skill: nope\nAvailable: lint, pdf, review' });
});

test('listFiles (S33)', async () => {
  const r = await sk.listFiles('pdf');
  assert.equal(r.name, 'pdf');
  assert.equal(r.baseDir, '/home/u/.xcsh/agent/skills/pdf');
  assert.ok(r.files.includes('SKILL.md') && r.files.includes('reference.md') && r.files.includes('scripts/fill.py'), r.files.join());
  await rejects(sk.listFiles('nope'), 'UNKNOWN_SKILL');
});

test('renderPrompt (S34)', async () => {
  const md = await sk.renderPrompt();
  assert.deepEqual(Object.keys(md), ['text', 'format', 'omitted', 'shortened']);
  assert.equal(md.format, 'markdown');
  assert.match(md.text, /## pdf/);
  const xml = await sk.renderPrompt({ format: 'xml' });
  assert.match(xml.text, /<available_skills>/);
  assert.equal((await sk.renderPrompt({ readTool: false })).text, '');
  const cut = await sk.renderPrompt({ maxChars: 40 });
  assert.ok(cut.text.length <= 40, cut.text);
  assert.ok(cut.omitted.length + cut.shortened.length > 0);
});

test('expandCommand (S35, S36)', async () => {
  const r = await sk.expandCommand('/skill:review  the diff ');
  assert.deepEqual(Object.keys(r), ['message', 'name', 'path', 'args']);
  assert.equal(r.name, 'review');
  assert.equal(r.args, 'the diff');
  assert.equal(r.message, 'Review carefully.\n\n---\n\nSkill: /work/proj/.claude/skills/review/SKILL.md\nUser: the diff');
  assert.equal(await sk.expandCommand('hello'), null);
  assert.equal(await sk.expandCommand('/skill:review', { enableSkillCommands: false }), null);
  assert.equal(await sk.expandCommand('/skill:nope', { enableSkillCommands: false }), null);
});

test('expandCommand: an unknown name is an error with "Did you mean", not null (S75)', async () => {
  await assert.rejects(sk.expandCommand('/skill:reveiw the diff'), (e) => {
    assert.ok(e instanceof SkilldexError);
    assert.equal(e.code, 'UNKNOWN_SKILL');
    assert.match(e.message, /^Unknown skill: reveiw\nDid you mean: review\nAvailable: /);
    return true;
  });
  await assert.rejects(sk.expandCommand('/skill: review'), { code: 'MISSING_NAME' });
});

test('commands (S37)', async () => {
  const r = await sk.commands();
  assert.deepEqual(r.commands.map((c) => c.name), ['skill:lint', 'skill:pdf', 'skill:review']);
  assert.deepEqual(Object.keys(r.commands[0]), ['name', 'description', 'path']);
});

test('contextFiles (S38, S39)', async () => {
  const r = await sk.contextFiles();
  assert.deepEqual(r.files.map((f) => [f.path, f.level, f.depth]), [
    ['/home/u/.xcsh/agent/XCSH.md', 'user', null],
    ['/work/proj/XCSH.md', 'project', 0],
  ]);
  assert.equal(r.files[1].content, 'project instructions\n');
});

test('validate (S40)', async () => {
  const bad = await sk.validate('/work/proj/bad');
  assert.equal(bad.dir, '/work/proj/bad');
  assert.ok(bad.diagnostics.some((d) => d.severity === 'error'), JSON.stringify(bad));
  const good = await sk.validate('/work/proj/.claude/skills/review');
  assert.ok(!good.diagnostics.some((d) => d.severity === 'error'), JSON.stringify(good));
  await rejects(sk.validate('/nowhere'), 'NOT_FOUND');
});

test('explain (S41)', async () => {
  const r = await sk.explain('pdf');
  assert.deepEqual(Object.keys(r), ['name', 'winner', 'candidates']);
  assert.equal(r.winner.source, 'native:user');
  assert.deepEqual(r.candidates.map((c) => [c.source, c.outcome]), [['native:user', 'loaded'], ['claude:user', 'shadowed']]);
  const off = await sk.explain('lint', { options: { disabledExtensions: ['skill:lint'] } });
  assert.equal(off.winner, null);
  assert.deepEqual(off.candidates.map((c) => c.outcome), ['disabled']);
  await rejects(sk.explain('nope'), 'UNKNOWN_SKILL');
});

test('trustedProject: false loads no project skill and no project context file (S68)', async () => {
  const trusted = await sk.discover();
  assert.ok(trusted.skills.some((k) => k.name === 'review'));
  const r = await sk.discover({ options: { trustedProject: false } });
  assert.deepEqual(r.skills.map((k) => k.name), ['lint', 'pdf']);
  assert.deepEqual(r.shadowed.filter((x) => x.reason === 'untrusted'), [
    { name: 'review', filePath: '/work/proj/.claude/skills/review/SKILL.md', source: 'claude:project', reason: 'untrusted' },
  ]);
  const ctx = await sk.contextFiles({ options: { trustedProject: false } });
  assert.deepEqual(ctx.files.map((f) => f.path), ['/home/u/.xcsh/agent/XCSH.md']);
  const why = await sk.explain('review', { options: { trustedProject: false } });
  assert.deepEqual(why.candidates.map((c) => c.outcome), ['untrusted']);
  await rejects(sk.activate('review', { options: { trustedProject: false } }), 'UNKNOWN_SKILL');
  await rejects(sk.discover({ options: { trustedProject: 'no' } }), 'INVALID_ARGUMENT');
});

test('activate (S69, S70, S72)', async () => {
  const r = await sk.activate('pdf');
  assert.deepEqual(Object.keys(r), ['name', 'baseDir', 'content', 'resources']);
  assert.equal(r.baseDir, '/home/u/.xcsh/agent/skills/pdf');
  // escape.md links outside the skill (to the project's XCSH.md): neither listed nor followed.
  assert.deepEqual(r.resources, ['reference.md', 'scripts/fill.py']);
  assert.equal(
    r.content,
    '<skill_content name="pdf">\nUse scripts/fill.py.\n\nSkill directory: /home/u/.xcsh/agent/skills/pdf\n' +
      'Relative paths in this skill resolve against that directory.\n\n<skill_resources>\n' +
      '  <file>reference.md</file>\n  <file>scripts/fill.py</file>\n</skill_resources>\n</skill_content>',
  );
  await rejects(sk.activate(''), 'MISSING_NAME');
  await rejects(sk.activate('nope'), 'UNKNOWN_SKILL');
});

test('toolDefinition (S71)', async () => {
  const t = await sk.toolDefinition();
  assert.equal(t.name, 'activate_skill');
  assert.deepEqual(Object.keys(t), ['name', 'description', 'inputSchema']);
  assert.deepEqual(t.inputSchema.required, ['name']);
  assert.equal(t.inputSchema.additionalProperties, false);
  assert.deepEqual(t.inputSchema.properties.name.enum, ['lint', 'pdf', 'review']);
  assert.deepEqual((await sk.toolDefinition({ options: { trustedProject: false } })).inputSchema.properties.name.enum, ['lint', 'pdf']);
  assert.equal(await sk.toolDefinition({ options: { enabled: false } }), null);
});

test('agents, where, options.agents and options.env (S64-S67)', async () => {
  const fs = new MemoryFS()
    .mkdir('/r/.git')
    .writeFile('/r/.agents/skills/pdf/SKILL.md', '---\ndescription: PDF tools\n---\n')
    .writeFile('/cfg/skills/mine/SKILL.md', '---\ndescription: under CLAUDE_CONFIG_DIR\n---\n');
  const ag = createSkilldex({ fs, cwd: '/r', home: '/h' });
  const table = await ag.agents();
  assert.ok(table.agents.length >= 30);
  const claude = table.agents.find((a) => a.id === 'claude-code');
  assert.deepEqual(Object.keys(claude), ['id', 'displayName', 'projectDirs', 'projectWalk', 'userDirs', 'userFirst', 'requireDescription', 'env', 'sources']);
  assert.deepEqual(claude.env, ['CLAUDE_CONFIG_DIR']);

  const w = await ag.where('/r/.agents/skills/pdf');
  assert.equal(w.dir, '/r/.agents/skills/pdf');
  assert.deepEqual(w.agents.find((a) => a.agent === 'codex'), {
    agent: 'codex', displayName: 'Codex', loaded: true, name: 'pdf', filePath: '/r/.agents/skills/pdf/SKILL.md', source: 'codex:project',
  });
  assert.deepEqual(w.agents.find((a) => a.agent === 'windsurf'), { agent: 'windsurf', displayName: 'Windsurf', loaded: false });
  await rejects(ag.where('/r/.agents/skills'), 'NOT_FOUND');

  // With a custom fs nothing comes from the process: env is what is given.
  const names = async (/** @type {import('../index.js').Options} */ options) => (await ag.discover({ options })).skills.map((s) => s.name);
  assert.deepEqual(await names({ agents: ['claude-code'] }), []);
  assert.deepEqual(await names({ agents: ['claude-code'], env: { CLAUDE_CONFIG_DIR: '/cfg' } }), ['mine']);
  assert.deepEqual(await names({ agents: ['codex', 'claude-code'], env: { CLAUDE_CONFIG_DIR: '/cfg' } }), ['mine', 'pdf']);
  await rejects(ag.discover({ options: { agents: ['clade-code'] } }), 'UNKNOWN_AGENT');
});

test('the default filesystem passes the process\'s values of the agent table\'s variables (S66)', async () => {
  const nodefs = await import('node:fs');
  const os = await import('node:os');
  const tmp = nodefs.realpathSync(nodefs.mkdtempSync(os.tmpdir() + '/skilldex-env-'));
  const before = process.env.CLAUDE_CONFIG_DIR;
  try {
    nodefs.mkdirSync(tmp + '/cfg/skills/mine', { recursive: true });
    nodefs.writeFileSync(tmp + '/cfg/skills/mine/SKILL.md', '---\ndescription: d\n---\n');
    process.env.CLAUDE_CONFIG_DIR = tmp + '/cfg';
    const def = createSkilldex({ cwd: tmp, home: tmp });
    const names = async (/** @type {import('../index.js').Options} */ options) => (await def.discover({ options })).skills.map((s) => s.name);
    assert.deepEqual(await names({ agents: ['claude-code'] }), ['mine']);
    assert.deepEqual(await names({ agents: ['claude-code'], env: {} }), []); // a given env is used as it is
    assert.equal((await def.where(tmp + '/cfg/skills/mine')).agents.find((a) => a.agent === 'claude-code')?.loaded, true);
    await def.close();
  } finally {
    if (before === undefined) delete process.env.CLAUDE_CONFIG_DIR;
    else process.env.CLAUDE_CONFIG_DIR = before;
    nodefs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('call: the exact reply string, error replies included', async () => {
  const raw = await sk.call({ op: 'discover', cwd, home });
  assert.equal(typeof raw, 'string');
  assert.equal(raw, JSON.stringify(await sk.discover()));
  assert.equal(await sk.call(JSON.stringify({ op: 'discover', cwd, home })), raw);
  assert.equal(await sk.call({ op: 'nope' }), '{"error":{"code":"BAD_REQUEST","message":"bad request: unknown op \\"nope\\""}}');
  assert.match(await sk.call('{"op":"discover","bogus":1}'), /^\{"error":\{"code":"BAD_REQUEST"/);
  assert.match(await sk.call('not json'), /^\{"error":\{"code":"BAD_REQUEST"/);
});

test('the default filesystem is the runtime\'s, with the process\'s cwd and home', async () => {
  const def = createSkilldex();
  const r = await def.discover({ options: { enabled: false } });
  assert.deepEqual(r, { skills: [], warnings: [], shadowed: [], digest: '8679df201f14da45' });
  const mod = await import('../index.js');
  assert.equal(typeof (await mod.discover({ options: { enabled: false } })).skills.length, 'number');
});
