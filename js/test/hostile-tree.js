// The 720-folder hostile tree, written by both its regression
// test (hostile.test.js) and its timing script (js/bench/hostile-list.mjs):
// 720 skill folders sharing one 64 KB SKILL.md (hard links: 3 MB on disk)
// whose description is raw \x01 bytes, in a repository, next to the user's
// own ~/.claude/skills/mine.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Write the tree under root unless it is there; its project and home.
 * @param {string} root
 * @returns {{proj: string, home: string}}
 */
export function writeControlByteTree(root) {
  const proj = path.join(root, 'w/proj');
  const home = path.join(root, 'home');
  const skills = path.join(proj, '.claude/skills');
  if (fs.existsSync(path.join(skills, 's719/SKILL.md'))) return { proj, home };
  fs.mkdirSync(path.join(proj, '.git'), { recursive: true });
  fs.mkdirSync(path.join(home, '.claude/skills/mine'), { recursive: true });
  fs.writeFileSync(path.join(home, '.claude/skills/mine/SKILL.md'), '---\ndescription: my own skill\n---\n');
  const body = Buffer.concat([Buffer.from('---\ndescription: '), Buffer.alloc(64 * 1024 - 40, 1), Buffer.from('\n---\n')]);
  fs.mkdirSync(path.join(skills, 's0'), { recursive: true });
  fs.writeFileSync(path.join(skills, 's0/SKILL.md'), body);
  for (let i = 1; i < 720; i++) {
    fs.mkdirSync(path.join(skills, 's' + i));
    fs.linkSync(path.join(skills, 's0/SKILL.md'), path.join(skills, 's' + i, 'SKILL.md'));
  }
  return { proj, home };
}
