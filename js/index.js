/* @ts-self-types="./index.d.ts" */
// @ts-check
// skilldex: the JS face of the Go engine in skilldex.wasm. Every decision is
// made in Go; src/facade.js builds request JSON, calls the module through
// src/engine.js and turns error replies into SkilldexErrors. The contract is
// index.d.ts.

import { SkilldexError, ABI_VERSION as VERSION } from './src/engine.js';
import { createNodeFS as nodeFSImpl } from './src/nodefs.js';
import { MemoryFS } from './src/memfs.js';
import { facade } from './src/facade.js';
// The runtime's own file (src/platform/current.js; a browser's bundle or
// import map puts browser.js in its place).
import { platform } from './src/platform/current.js';

export { SkilldexError, MemoryFS };

/** @type {import('./index.js').ABI_VERSION} */
export const ABI_VERSION = /** @type {5} */ (VERSION);

/** @type {import('./index.js').createNodeFS} */
export const createNodeFS = (fs, opts) => /** @type {import('./index.js').BytesFileSystem} */ (nodeFSImpl(/** @type {any} */ (fs), opts, platform.defaultFS()));

/** @type {import('./index.js').createSkilldex} */
export const createSkilldex = facade(platform);

/** @type {import('./index.js').Skilldex | undefined} */
let shared;
const def = () => (shared ??= createSkilldex());

/** @type {import('./index.js').discover} */
export const discover = (ctx) => def().discover(ctx);
/** @type {import('./index.js').scanDir} */
export const scanDir = (dir, o) => def().scanDir(dir, o);
/** @type {import('./index.js').resolve} */
export const resolve = (url, ctx) => def().resolve(url, ctx);
/** @type {import('./index.js').listFiles} */
export const listFiles = (name, ctx) => def().listFiles(name, ctx);
/** @type {import('./index.js').renderPrompt} */
export const renderPrompt = (o) => def().renderPrompt(o);
/** @type {import('./index.js').expandCommand} */
export const expandCommand = (text, o) => def().expandCommand(text, o);
/** @type {import('./index.js').commands} */
export const commands = (ctx) => def().commands(ctx);
/** @type {import('./index.js').contextFiles} */
export const contextFiles = (ctx) => def().contextFiles(ctx);
/** @type {import('./index.js').validate} */
export const validate = (dir) => def().validate(dir);
/** @type {import('./index.js').explain} */
export const explain = (name, ctx) => def().explain(name, ctx);
/** @type {import('./index.js').match} */
export const match = (paths, ctx) => def().match(paths, ctx);
/** @type {import('./index.js').activate} */
export const activate = (name, ctx) => def().activate(name, ctx);
/** @type {import('./index.js').toolDefinition} */
export const toolDefinition = (ctx) => def().toolDefinition(ctx);
/** @type {import('./index.js').agents} */
export const agents = (o) => def().agents(o);
/** @type {import('./index.js').where} */
export const where = (dir, ctx) => def().where(dir, ctx);
/** @type {import('./index.js').call} */
export const call = (request) => def().call(request);
