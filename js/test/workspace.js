// A small workspace used by the API and CLI tests: in memory (MemoryFS) or
// on disk under a temporary directory.

import fs from 'node:fs';
import path from 'node:path';
import { MemoryFS } from '../index.js';

const skill = (name, description, body = '') => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** [path, content] files and [path, target] links, all under the virtual root. */
export const files = [
  ['/home/u/.xcsh/agent/skills/pdf/SKILL.md', skill('pdf', 'Read and fill PDF forms', 'Use scripts/fill.py.')],
  ['/home/u/.xcsh/agent/skills/pdf/reference.md', '# PDF reference\n'],
  ['/home/u/.xcsh/agent/skills/pdf/scripts/fill.py', 'print("fill")\n'],
  ['/home/u/.xcsh/agent/XCSH.md', 'user instructions\n'],
  ['/home/u/.claude/skills/pdf/SKILL.md', skill('pdf', 'Another pdf skill')],
  ['/home/u/.claude/skills/lint/SKILL.md', skill('lint', 'Lint the code')],
  ['/work/proj/XCSH.md', 'project instructions\n'],
  ['/work/proj/.claude/skills/review/SKILL.md', skill('review', 'Review a change', 'Review carefully.')],
  ['/work/proj/bad/SKILL.md', skill('Bad_Name', 'x')],
];
export const dirs = ['/work/proj/.git', '/work/proj/src'];
export const links = [['/home/u/.xcsh/agent/skills/pdf/escape.md', '/work/proj/XCSH.md']];

export const cwd = '/work/proj';
export const home = '/home/u';

export function memoryWorkspace() {
  const m = new MemoryFS();
  for (const d of dirs) m.mkdir(d);
  for (const [p, c] of files) m.writeFile(p, c);
  for (const [p, t] of links) m.symlink(t, p);
  return m;
}

/** Write the workspace under root (absolute link targets become root + target). */
export function diskWorkspace(root) {
  for (const d of dirs) fs.mkdirSync(root + d, { recursive: true });
  for (const [p, c] of files) {
    fs.mkdirSync(path.dirname(root + p), { recursive: true });
    fs.writeFileSync(root + p, c);
  }
  for (const [p, t] of links) fs.symlinkSync(root + t, root + p);
}
