// The frontmatter module (wasm/ABI.md#the-frontmatter-module):
// the engine module reaches the complete YAML path only through the
// parse_frontmatter import, and the host instantiates the frontmatter
// module the first time the engine asks. A workspace whose SKILL.md files
// the engine's scanner reads never loads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSkilldex, MemoryFS } from '../index.js';

const cwd = '/p';
const home = '/h';

/** @param {Record<string, string>} skills name -> SKILL.md text */
function workspace(skills) {
  const fs = new MemoryFS();
  for (const [name, text] of Object.entries(skills)) fs.writeFile(`/p/.xcsh/skills/${name}/SKILL.md`, text);
  fs.mkdir('/h');
  return fs;
}

const plain = {
  plain: '---\nname: plain\ndescription: Plain YAML the scanner reads\ntags: [a, b]\n---\nbody\n',
  block: '---\nname: block\ndescription: |\n  A block scalar.\n---\n',
};

test('a workspace the scanner reads alone never loads the frontmatter module', async () => {
  const sk = createSkilldex({ fs: workspace(plain), cwd, home });
  const r = await sk.discover();
  assert.deepEqual(r.skills.map((s) => s.name), ['block', 'plain']);
  await sk.discover();
  assert.equal(sk.stats().frontmatterInstances, 0);
  assert.equal(sk.stats().frontmatterParses, 0);
});

test('the frontmatter module is not even compiled until the engine asks for it', async () => {
  // Bytes that do not compile: a workspace the scanner reads never notices
  // them (compiling the 5 MB module at every first call cost a one-shot
  // discover() 100-300 ms); the first declined file does.
  const broken = new Uint8Array([0, 97, 115, 109, 9, 9]);
  const sk = createSkilldex({ fs: workspace(plain), cwd, home, frontmatterWasm: broken });
  assert.deepEqual((await sk.discover()).skills.map((s) => s.name), ['block', 'plain']);
  const declined = createSkilldex({ fs: workspace({ ...plain, anchor: '---\nname: anchor\ndescription: &d x\n---\n' }), cwd, home, frontmatterWasm: broken });
  const r = await declined.discover();
  assert.match(r.warnings.map((w) => w.message).join('\n'), /anchor\/SKILL\.md: the YAML parser could not run/);
});

test('the scanner recovers an unquoted colon (SPEC S7\'s example) itself: no frontmatter module', async () => {
  const sk = createSkilldex({ fs: workspace({ ...plain, colon: '---\nname: colon\ndescription: Use when: X\n---\n' }), cwd, home });
  const r = await sk.discover();
  assert.equal(r.skills.find((s) => s.name === 'colon')?.description, 'Use when: X');
  assert.match(r.warnings.map((w) => w.message).join('\n'), /colon\/SKILL\.md:3: invalid YAML \(mapping values are not allowed in this context\); quote the value: description: "Use when: X"/);
  assert.equal(sk.stats().frontmatterInstances, 0);
});

test('a frontmatter the scanner declines loads it once, with the complete path\'s result', async () => {
  const sk = createSkilldex({
    fs: workspace({
      ...plain,
      anchor: '---\nname: anchor\ndescription: &d Uses an anchor\nsummary: *d\n---\n',
      broken: '---\nname: broken\ndescription: a: b\n---\n',
    }),
    cwd,
    home,
  });
  const r = await sk.discover();
  // The anchor alone takes the complete path (the unquoted colon the scanner recovers).
  assert.equal(sk.stats().frontmatterParses, 1);
  const anchor = r.skills.find((s) => s.name === 'anchor');
  assert.equal(anchor?.frontmatter.summary, 'Uses an anchor');
  assert.match(r.warnings.map((w) => w.message).join('\n'), /broken\/SKILL\.md:3: invalid YAML \(mapping values are not allowed in this context\)/);
  await sk.discover();
  assert.equal(sk.stats().frontmatterInstances, 1);
});

test('validate takes the complete path', async () => {
  const sk = createSkilldex({ fs: workspace(plain), cwd, home });
  const r = await sk.validate('/p/.xcsh/skills/plain');
  assert.equal(r.diagnostics[0]?.code, 'unknown-key');
  assert.equal(sk.stats().frontmatterInstances, 1);
});

test('without a frontmatter module, a declined file is skipped with a warning naming it', async () => {
  const sk = createSkilldex({
    fs: workspace({ ...plain, anchor: '---\nname: anchor\ndescription: &d x\n---\n' }),
    cwd,
    home,
    frontmatterWasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]), // an empty module: no exports
  });
  const r = await sk.discover();
  assert.deepEqual(r.skills.map((s) => s.name), ['block', 'plain']);
  assert.match(r.warnings.map((w) => w.message).join('\n'), /anchor\/SKILL\.md: the YAML parser could not run \(the frontmatter module failed \(EIO\)\); the skill is skipped/);
});

// Issue 16 item 2: 720 folders sharing one 64 KB SKILL.md whose description
// is raw \x01 bytes sent every copy through the frontmatter module, and each
// came back as 384 KB of escaped JSON. yaml.v3 rejects a control character
// before anything else whenever the text before it is in the scanner's
// subset, so the scanner gives S7's recovery and warning itself.
test('a 64 KB description of control characters is recovered by the scanner: no frontmatter module (S7, S45)', async () => {
  const desc = '\x01'.repeat(64 * 1024 - 40);
  const skills = { ...plain, colon: '---\nname: colon\ndescription: Use when: X\n---\n' };
  for (let i = 0; i < 20; i++) skills['c' + i] = `---\ndescription: ${desc}\n---\n`;
  const sk = createSkilldex({ fs: workspace(skills), cwd, home });
  const r = await sk.discover();
  assert.equal(r.skills.length, 23);
  const c0 = r.skills.find((s) => s.name === 'c0');
  assert.equal(c0?.description, '\ufffd'.repeat(4096));
  const warnings = r.warnings.map((w) => w.message).filter((m) => m.includes('/c0/SKILL.md'));
  assert.match(warnings[0], /c0\/SKILL\.md:2: invalid YAML \(control characters are not allowed\); /);
  assert.ok(warnings[0].length < 1000, `a warning of ${warnings[0].length} characters`);
  assert.equal(sk.stats().frontmatterInstances, 0);
  // Text before the control character that the scanner cannot vouch for
  // still goes to the complete path, which yaml.v3 alone decides.
  const anchored = createSkilldex({ fs: workspace({ ...plain, a: `---\nname: a\nsummary: &x y\ndescription: ${desc}\n---\n` }), cwd, home });
  const ra = await anchored.discover();
  assert.equal(ra.skills.find((s) => s.name === 'a')?.description, '\ufffd'.repeat(4096));
  assert.equal(anchored.stats().frontmatterInstances, 1);
});
