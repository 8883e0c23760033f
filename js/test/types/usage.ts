// Snippets that must compile against index.d.ts, and snippets that must
// not (each under an expect-error directive). Checked by `tsc -p test/types`.

import {
  createSkilldex,
  discover,
  resolve,
  call,
  MemoryFS,
  SkilldexError,
  ABI_VERSION,
  type FileSystem,
  type Skill,
  type DiscoverResult,
  type Expansion,
  type Options,
  type Warning,
  type Diagnostic,
  type ErrorCode,
} from 'skilldex';

async function ok() {
  const r: DiscoverResult = await discover();
  const s: Skill = r.skills[0];
  const names: string[] = r.skills.map((k) => k.name);
  const level: 'user' | 'project' = s.level;
  const always: boolean | undefined = s.alwaysApply;
  const why = r.shadowed[0]?.reason;
  if (why === 'name' || why === 'realpath') console.log(r.shadowed[0].winner);

  const doc = await resolve('skill://pdf/x.md', { cwd: '/w', home: '/h' });
  const size: number = doc.size;

  const sk = createSkilldex({ fs: new MemoryFS().writeFile('/a', 'x'), cwd: '/', home: '/h' });
  const e: Expansion | null = await sk.expandCommand('/skill:pdf', { enableSkillCommands: true });
  if (e) console.log(e.args.length);
  const p = await sk.renderPrompt({ format: 'xml', readTool: false, maxChars: 100 });
  const f: 'markdown' | 'xml' = p.format;
  const ctx = await sk.contextFiles();
  const depth: number | null = ctx.files[0].depth;
  const v = await sk.validate('/d');
  const sev: 'error' | 'warning' | 'info' = v.diagnostics[0].severity;
  const ex = await sk.explain('pdf');
  const winner: Skill | null = ex.winner;
  const rawJson: string = await call({ op: 'discover', cwd: '/', home: '/h' });
  const raw2: string = await sk.call('{"op":"commands"}');
  const n: number = sk.stats().memoryBytes;
  const opts: Options = { enabled: true, customDirectories: ['~/skills'], extraProviders: [{ id: 'x', displayName: 'X', priority: 1 }] };
  await sk.discover({ options: opts });
  await sk.scanDir('/d', { source: 'custom:user' });
  const table = await sk.agents();
  const walk: 'cwd' | 'ancestors' = table.agents[0].projectWalk;
  const vars: string[] = table.agents[0].env;
  await sk.discover({ options: { agents: ['claude-code', 'codex'], env: { CODEX_HOME: '/x' } } });
  const reach = await sk.where('/w/.agents/skills/pdf', { cwd: '/w', home: '/h', options: { agents: ['codex'] } });
  const loaded: boolean = reach.agents[0].loaded;
  const via: string | undefined = reach.agents[0].filePath;
  await sk.where(new URL('file:///w/.agents/skills/pdf'), { signal: AbortSignal.timeout(1000) });
  const rawWhere: string = await call({ op: 'where', dir: '/d', cwd: '/', home: '/h' });
  await sk.listFiles('pdf');
  await sk.commands();
  const act = await sk.activate('pdf', { options: { trustedProject: false } });
  const forModel: string = act.content;
  const cut: true | undefined = act.truncated;
  const tool = await sk.toolDefinition();
  if (tool) {
    const enumNames: string[] = tool.inputSchema.properties.name.enum;
    const toolName: 'activate_skill' = tool.name;
  }
  if (why === 'untrusted') console.log(r.shadowed[0].source);
  await sk.ready();
  await sk.close();
  const five: 5 = ABI_VERSION;

  try {
    await sk.resolve('skill://nope');
  } catch (err) {
    if (err instanceof SkilldexError) {
      const code: string = err.code;
      if (err.code === 'UNKNOWN_SKILL') console.log(err.message);
    }
  }

  // A string filesystem and a bytes filesystem both qualify.
  const strFs: FileSystem = {
    readDir: (path: string) => [{ name: 'a', type: 'dir' }],
    stat: (path: string) => (path === '/' ? 'dir' : null),
    lstat: () => 'file',
    readFile: () => 'text',
    realpath: (path: string) => path,
  };
  const byteFs: FileSystem = {
    bytePaths: true,
    readDir: (path: Uint8Array) => [{ name: new Uint8Array([0x61]), type: 'symlink' }],
    stat: () => undefined,
    lstat: () => 'other',
    readFile: (path: Uint8Array) => new Uint8Array(0),
    readFileInto: (path: Uint8Array, buf: Uint8Array) => buf.length,
    realpath: (path: Uint8Array) => path,
  };
  createSkilldex({ fs: strFs });
  createSkilldex({ fs: byteFs, wasm: new Uint8Array(0), stderr: (t: string) => console.log(t) });
  // S73: warnings and diagnostics as data.
  const w: Warning = r.warnings[0];
  const where: string = `${w.path}:${w.line ?? 0}:${w.column ?? 0} ${w.code} ${w.fix ?? ''} ${w.skillPath}`;
  const d: Diagnostic = v.diagnostics[0];
  if (d.code === 'invalid-yaml' || d.code === 'some-later-code') console.log(d.message);
  const tooLarge: ErrorCode = 'TOO_LARGE';
  const usage: ErrorCode = 'USAGE';
  // S74: paths as strings or file: URLs, a signal on every call and on watch.
  const ctl = new AbortController();
  await sk.discover({ cwd: new URL('file:///w/'), home: 'relative/home', signal: ctl.signal });
  await sk.validate(new URL('file:///d/SKILL.md'), { signal: AbortSignal.timeout(1000) });
  await sk.scanDir(new URL('file:///d'), { source: 'custom:user', signal: ctl.signal });
  await sk.match([new URL('file:///w/a.ts'), 'b.ts'], { signal: ctl.signal });
  await sk.resolve(new URL('skill://pdf'), { signal: ctl.signal });
  await sk.call('{"op":"commands"}', { signal: ctl.signal });
  sk.watch({ cwd: new URL('file:///w') }, () => {}, { signal: ctl.signal });
  createSkilldex({ cwd: new URL('file:///w'), options: { customDirectories: [new URL('file:///skills'), '~/x'] } });
  return [names, level, always, size, f, depth, sev, winner, rawJson, raw2, n, five, where, tooLarge, usage];
}

async function notOk() {
  const sk = createSkilldex();
  // @ts-expect-error: resolve needs a URL
  await sk.resolve();
  // @ts-expect-error: the format is markdown or xml
  await sk.renderPrompt({ format: 'html' });
  // @ts-expect-error: options are typed
  await sk.discover({ options: { enabled: 'yes' } });
  // @ts-expect-error: unknown option
  await sk.discover({ options: { enabeld: true } });
  const r = await sk.discover();
  // @ts-expect-error: skills are not strings
  const s: string = r.skills[0];
  // @ts-expect-error: expandCommand may return null
  const m: string = (await sk.expandCommand('x')).message;
  // @ts-expect-error: a bytes filesystem takes Uint8Array paths
  const bad: FileSystem = {
    bytePaths: true,
    readDir: (path: string) => [],
    stat: () => null,
    lstat: () => null,
    readFile: () => '',
    realpath: () => '/',
  };
  // @ts-expect-error: a type must be one of the four
  const t: FileSystem = { readDir: () => [{ name: 'a', type: 'folder' }], stat: () => null, lstat: () => null, readFile: () => '', realpath: () => '/' };
  // @ts-expect-error: stats is synchronous
  await sk.stats().then(() => {});
  // @ts-expect-error: a path is a string or a URL
  await sk.validate(42);
  // @ts-expect-error: a signal is an AbortSignal
  await sk.discover({ signal: true });
  // @ts-expect-error: a severity is one of three
  const sv: Diagnostic['severity'] = 'fatal';
  return [s, m, bad, t, sv];
}

async function editor() {
  const sk = createSkilldex({ worker: true });
  const h = sk.watch({ cwd: '/p' }, (c) => {
    const names: string[] = c.added.map((s) => s.name).concat(c.removed.map((s) => s.name), c.changed.map((s) => s.name));
    const n: number = c.result.skills.length;
    return [names, n];
  }, { debounceMs: 50, maxWatchers: 100, pollMs: 1000, persistent: false, onError: (e) => console.error(e) });
  const first = await h.ready;
  const w: number = h.watching;
  await h.close();
  // @ts-expect-error: debounceMs is a number
  sk.watch(undefined, () => {}, { debounceMs: '50' });
  // @ts-expect-error: worker is a boolean
  createSkilldex({ worker: 'yes' });
  return [first, w];
}

export { ok, notOk, editor };
