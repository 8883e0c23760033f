// The contract of the skilldex package: hand-written, declarations only.
// index.js is pinned to it with `@type {import('./index').x}` annotations and
// checked by `tsc` (js/test/types).
//
// Every operation runs inside the WebAssembly module built from the Go core
// (wasm/ABI.md); this package only carries requests there and replies back.
// Results are the JSON shapes of the SPEC, section 12, parsed.
//
// # Sync or async
//
// Every operation returns a Promise. The work itself is synchronous and
// CPU-bound (the filesystem calls are synchronous too); the Promise lets the
// first call compile and instantiate the module, and it orders calls: the
// calls on one Skilldex run one after another, in the order they were made,
// never interleaved, even when they are started together (Promise.all) or
// from inside a filesystem callback. A call's failure does not affect the
// next one.
//
// # Paths and signals (SPEC S74)
//
// Every path the API takes is a string or a file: URL (PathLike), as
// node:fs takes them. A relative string is resolved against the process's
// working directory, before the request goes to the engine, where the
// engine reads the runtime's own filesystem; with a custom `fs` (and in a
// browser, which has no working directory) a relative path is an
// INVALID_ARGUMENT error. Every call takes a `signal` (CallOptions), and so
// does watch (WatchOptions): a call whose signal has aborted, or aborts
// before its result is delivered, rejects with a DOMException named
// "AbortError" whose `cause` is the signal's reason, as Node's own APIs do;
// one aborted while it waits for its turn is not run.
//
// # Errors
//
// A failed operation rejects with a SkilldexError whose `code` is one of
// ErrorCode. After a crash of the module (a trap, a Go fatal error, or a
// filesystem method that threw something other than an fs error) the call
// rejects with code "INTERNAL" and the module instance is replaced: the
// next call runs on a fresh one and gives correct results.

/**
 * A path (SPEC S74): a string, absolute or relative to the process's
 * working directory (with the runtime's own filesystem only), or a file: URL.
 */
export type PathLike = string | URL;

/** What every call takes besides its own arguments (SPEC S74). */
export interface CallOptions {
  /**
   * Abort the call: it rejects with a DOMException named "AbortError"
   * (cause: the signal's reason), at once, whatever the engine is doing.
   */
  signal?: AbortSignal;
}

/** A filesystem entry's type (SPEC S2). */
export type FileType = 'file' | 'dir' | 'symlink' | 'other';

/**
 * The filesystem the engine reads through (SPEC S2): five synchronous
 * operations on absolute, clean, slash-separated paths. Throw an error with
 * a string `code` ("ENOENT", "ENOTDIR", "EACCES", "ELOOP", "EIO", ...) to
 * fail; an unknown code counts as "EIO". Throwing anything without a `code`
 * aborts the call with an INTERNAL error.
 *
 * Paths are strings, or with `bytePaths: true` Uint8Arrays of the raw bytes
 * (valid during the call only: copy one to keep it).
 */
export type FileSystem = StringFileSystem | BytesFileSystem;

interface FileSystemBase<P> {
  /** The entries of a directory, typed without following links, in any order; no "." or "..". */
  readDir(path: P): ReadonlyArray<{ readonly name: string | Uint8Array; readonly type: FileType }>;
  /** The type of path, following symlinks; null or undefined (or an ENOENT error) when it does not exist. */
  stat(path: P): FileType | null | undefined;
  /** The type of path without following a final symlink. */
  lstat(path: P): FileType | null | undefined;
  /** The whole file (a string is taken as its UTF-8 bytes). */
  readFile(path: P): Uint8Array | string;
  /** The canonical path: absolute, no symlinks, no "." or "..". */
  realpath(path: P): string | Uint8Array;
  /**
   * Optional fast path: copy the first min(size, buf.length) bytes of the
   * file into buf and return the file's size (a number greater than
   * buf.length when the file is longer and its size unknown). Lets
   * discovery read only a SKILL.md's first 4 KiB, straight into the module.
   */
  readFileInto?(path: P, buf: Uint8Array): number;
  /**
   * Optional (SPEC S44): readFileInto for a regular file that must lie inside
   * within, an absolute realpath: the filesystem checks the file it actually
   * opened (not the path, which may have been swapped for a link) and throws
   * an error with code 'EXDEV' when it lies outside; a directory is 'EISDIR',
   * any other non-regular file 'EINVAL'. The default node:fs filesystem has it;
   * without it the engine's realpath check before the read is all there is.
   * When version is given, set its fields to the version of the file opened
   * (fstat of its descriptor, so that it is the version of the bytes read);
   * a filesystem that cannot tell leaves it alone, and the engine then takes
   * fileVersion just before and just after the read.
   */
  readFileWithin?(within: P, path: P, buf: Uint8Array, version?: Partial<MutableFileVersion>): number;
  /**
   * Optional: the version of the regular file path names, following no link
   * at its last element (wasm/ABI.md#file_version, SPEC S61): null or
   * undefined (or an ENOENT error) when it does not exist, an error with
   * code 'EISDIR' for a directory and 'EINVAL' for a link or another
   * non-regular file. With it, a discovery whose every
   * input is unchanged since the last one is answered without reading its
   * SKILL.md files again (the change time is what tells, so it must be the
   * one the system sets on every change). The default filesystems have it;
   * without it the engine reads again and compares.
   */
  fileVersion?(path: P): FileVersion | null | undefined;
}

/** What fileVersion gives: non-negative integers, the times in nanoseconds since the Unix epoch. */
export interface FileVersion {
  readonly dev: number | bigint;
  readonly ino: number | bigint;
  readonly size: number | bigint;
  readonly mtimeNs: number | bigint;
  readonly ctimeNs: number | bigint;
}

/** What readFileWithin sets when asked for a version: the fields of a FileVersion. */
export type MutableFileVersion = { -readonly [K in keyof FileVersion]: FileVersion[K] };

export interface StringFileSystem extends FileSystemBase<string> {
  readonly bytePaths?: false;
}

export interface BytesFileSystem extends FileSystemBase<Uint8Array> {
  readonly bytePaths: true;
}

/** A provider registered by the host (SPEC S19). */
export interface Provider {
  id: string;
  displayName: string;
  /** Higher first; ties keep registration order. */
  priority: number;
  /** Relative to home. */
  userDirs?: string[] | null;
  /** Relative to each project ancestor. */
  projectDirs?: string[] | null;
  userFirst?: boolean;
  cwdOnly?: boolean;
  requireDescription?: boolean;
}

/** Discovery options (SPEC section 5); absent means the default. */
export interface Options {
  enabled?: boolean;
  enableCodexUser?: boolean;
  enableClaudeUser?: boolean;
  enableClaudeProject?: boolean;
  enablePiUser?: boolean;
  enablePiProject?: boolean;
  /** A relative entry is relative to cwd (S26), not to the process's working directory. */
  customDirectories?: PathLike[] | null;
  ignoredSkills?: string[] | null;
  includeSkills?: string[] | null;
  disabledExtensions?: string[] | null;
  configDirName?: string;
  extraProviders?: Provider[] | null;
  /**
   * SPEC S68: whether the user trusts the project folder. Default true.
   * When false, project-level skills are found but not loaded (each is in
   * `shadowed` with reason "untrusted"), and contextFiles reads no project file.
   */
  trustedProject?: boolean;
  /**
   * SPEC S65: discover exactly these agents' folders (ids of the agent
   * table, `agents()`), the first listed winning a name, in place of the
   * provider table. An unknown id rejects with UNKNOWN_AGENT.
   */
  agents?: string[] | null;
  /**
   * SPEC S66: the environment variables the agent table's user folders read
   * (CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME, XDG_CONFIG_HOME, ...; each
   * agent's `env` lists its own). The engine never reads the process's
   * environment. With the default filesystem, a call that uses the agent
   * table (`agents` set, or `where`) and gives no `env` passes the process's
   * values of these variables (none where the runtime refuses: Deno without
   * --allow-env).
   */
  env?: { [name: string]: string } | null;
}

/**
 * The load context of a discovery (SPEC S1). Absent fields come from the
 * Skilldex's defaults (createSkilldex); with the default filesystem those
 * are the process's working directory and home. Per-call `options` replace
 * the default options as a whole (they are not merged); the engine applies
 * the SPEC defaults to every option left out.
 */
export interface LoadContext {
  cwd?: PathLike;
  home?: PathLike;
  options?: Options;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Skill {
  name: string;
  description: string;
  filePath: string;
  baseDir: string;
  source: string;
  provider: string;
  providerName: string;
  level: 'user' | 'project';
  sourcePath: string;
  frontmatter: { [key: string]: JsonValue };
  contexts?: string[];
  globs?: string[];
  alwaysApply?: boolean;
  /** SPEC S47: `disable-model-invocation: true`; the skill is left out of the prompt. */
  disableModelInvocation?: true;
  /** SPEC S47: `user-invocable: false`; the skill is not a /skill: command. */
  userInvocable?: false;
}

/**
 * The stable codes of warnings and diagnostics (SPEC S73, which says what
 * each means). core's Diag constants are the list; a test in core checks
 * this union against them.
 */
export type DiagnosticCode =
  | 'root-unreadable'
  | 'root-too-large'
  | 'unreadable'
  | 'link-outside'
  | 'invalid-yaml'
  | 'frontmatter-warning'
  | 'frontmatter-limit'
  | 'parser-failed'
  | 'name-too-long'
  | 'control-character'
  | 'description-too-long'
  | 'plugin-registry-unreadable'
  | 'plugin-registry-invalid'
  | 'plugin-id-invalid'
  | 'invalid-glob'
  | 'glob-too-complex'
  | 'name-collision'
  | 'reply-budget'
  | 'file-too-large'
  | 'custom-dir-missing'
  | 'managed-name'
  | 'missing-skill-md'
  | 'empty-file'
  | 'no-frontmatter'
  | 'unclosed-frontmatter'
  | 'name-missing'
  | 'name-type'
  | 'name-length'
  | 'name-charset'
  | 'name-format'
  | 'name-hyphen'
  | 'name-mismatch'
  | 'description-missing'
  | 'description-type'
  | 'description-length'
  | 'compatibility-type'
  | 'compatibility-length'
  | 'metadata-type'
  | 'metadata-value'
  | 'field-type'
  | 'disabled'
  | 'unknown-key'
  | 'empty-body'
  | 'nested-skill-md';

/**
 * One problem, as data (SPEC S73): where it is, what it is, how bad, and
 * what to do. An editor's problems list or a language server reads these
 * fields; the message is for people.
 */
export interface Diagnostic {
  /** The file or directory the problem is in; "" when it is in no file (the call's options, the reply budget). */
  path: string;
  /** 1-based line in path (after S4 decoding), when one applies. */
  line?: number;
  /** 1-based column on that line, in characters (code points), when the engine knows it. */
  column?: number;
  /** Stable; typed string so that codes added later still type-check. */
  code: DiagnosticCode | (string & {});
  /**
   * validate: against the Agent Skills specification. A warning: "error", something
   * that exists was not loaded; "warning", it loaded but not as written.
   */
  severity: 'error' | 'warning' | 'info';
  /** The text for people, as it has always been (the fix included where the message has one). */
  message: string;
  /** What to do, when a fix is known. */
  fix?: string;
}

/** A warning of discover, scanDir, contextFiles or match: a Diagnostic and the skill or root it concerns (S27). */
export interface Warning extends Diagnostic {
  /** The skill file or custom directory concerned; "" for a provider's warning (its file is in path). */
  skillPath: string;
}

export type ShadowReason = 'name' | 'realpath' | 'disabled' | 'source-off' | 'ignored' | 'not-included' | 'link-outside' | 'untrusted';

export interface Shadowed {
  name: string;
  filePath: string;
  source: string;
  reason: ShadowReason;
  /** For reasons "name" and "realpath": the winner's filePath. */
  winner?: string;
}

export interface DiscoverResult {
  skills: Skill[];
  warnings: Warning[];
  shadowed: Shadowed[];
  /**
   * The first 16 hex digits of the SHA-256 of this reply's JSON without
   * digest (S54): the same tree and options give the same digest in every
   * runtime; any change in skills, warnings or shadowed changes it.
   */
  digest: string;
}

export interface ScanResult {
  skills: Skill[];
  warnings: Warning[];
}

export interface Resource {
  url: string;
  content: string;
  contentType: 'text/markdown' | 'text/plain';
  size: number;
  sourcePath: string;
}

export interface FileList {
  name: string;
  baseDir: string;
  files: string[];
  /** Present (true) when the skill holds more than 10000 files: the listing stopped there (S45). */
  truncated?: true;
}

export interface PromptOptions extends LoadContext {
  /** Default true; without the read tool the text is empty. */
  readTool?: boolean;
  /** Default "markdown". */
  format?: 'markdown' | 'xml';
  /** Bound on the whole text; 0 or absent: none. */
  maxChars?: number;
}

export interface Prompt {
  text: string;
  format: 'markdown' | 'xml';
  omitted: string[];
  shortened: string[];
}

export interface ExpandOptions extends LoadContext {
  /** Default true. */
  enableSkillCommands?: boolean;
}

export interface Expansion {
  message: string;
  name: string;
  path: string;
  args: string;
}

export interface Command {
  name: string;
  description: string;
  path: string;
}

export interface CommandList {
  commands: Command[];
}

export interface ContextFile {
  path: string;
  content: string;
  level: 'user' | 'project';
  /** Levels above cwd; null for the user file. */
  depth: number | null;
}

export interface ContextFiles {
  files: ContextFile[];
  /** Candidates skipped: a link outside its boundary (S43), a file over 1 MiB (S45). Absent when none. */
  warnings?: Warning[];
}

export interface Validation {
  dir: string;
  diagnostics: Diagnostic[];
  /** SPEC S51: for a skills root (no SKILL.md, skill folders below), one Validation per skill folder. */
  skills?: Validation[];
}

export interface Candidate {
  filePath: string;
  source: string;
  outcome: 'loaded' | 'shadowed' | 'duplicate' | 'disabled' | 'source-off' | 'ignored' | 'not-included' | 'link-outside' | 'untrusted';
  reason?: string;
}

export interface Explanation {
  name: string;
  winner: Skill | null;
  candidates: Candidate[];
}

/** A skill loaded for the model by the activation tool (SPEC S69, S70, S72). */
export interface Activation {
  name: string;
  baseDir: string;
  /**
   * The tool's result for the model: the SKILL.md body (frontmatter stripped)
   * in `<skill_content name="...">`, then the skill's directory and its
   * files in `<skill_resources>`.
   */
  content: string;
  /** The files `content` lists, relative to baseDir, in byte order; at most 100, SKILL.md not among them (S70). */
  resources: string[];
  /** Present (true) when the listing stopped at a bound (S70): the skill may hold more files. */
  truncated?: true;
}

/** One coding agent of the agent table (SPEC S64). */
export interface AgentProfile {
  /** The agent's id in the npm `skills` installer (its --agent). */
  id: string;
  displayName: string;
  /** Skills roots relative to a project folder, the agent's preferred first. */
  projectDirs: string[];
  /** Which project folders: the working directory only, or S16's project ancestors (closest first). */
  projectWalk: 'cwd' | 'ancestors';
  /** The user's skills roots: "~/...", an absolute path, or "${VAR:-default}/..." (S66). */
  userDirs: string[];
  /** The user roots win a name over the project roots. */
  userFirst: boolean;
  /** The agent skips a SKILL.md without a description. */
  requireDescription: boolean;
  /** The environment variables userDirs read. */
  env: string[];
  /** The public pages and sources the row comes from. */
  sources: string[];
}

export interface AgentTable {
  /** By id. */
  agents: AgentProfile[];
}

/** One agent's answer for a skill folder (SPEC S67). */
export interface AgentReach {
  agent: string;
  displayName: string;
  loaded: boolean;
  /** Present when the agent's folders reach the skill: the name it knows it by. */
  name?: string;
  /** The SKILL.md path through which the agent reaches it. */
  filePath?: string;
  /** "<agent>:<level>". */
  source?: string;
  /** Why a reached skill is not loaded: a ShadowReason or "link-outside". */
  reason?: string;
  /** For "name" and "realpath": the filePath of the skill that won. */
  winner?: string;
}

export interface WhereResult {
  dir: string;
  /** Every agent of the table (or of options.agents, in that order). */
  agents: AgentReach[];
}

/**
 * The activation tool's definition (SPEC S71), in the shape of an MCP tool:
 * for Anthropic's API pass `inputSchema` as `input_schema`, for OpenAI's as
 * the function's `parameters`.
 */
export interface ToolDefinition {
  name: 'activate_skill';
  description: string;
  inputSchema: {
    type: 'object';
    properties: {
      name: {
        type: 'string';
        description: string;
        /** The names activate accepts, in S15 order: the skills the model may invoke (S47). */
        enum: string[];
      };
    };
    required: ['name'];
    additionalProperties: false;
  };
}

/**
 * The codes of SkilldexError: the engine's (core's Code constants; a test
 * in core checks this union against them), ABI_MISMATCH from the loader (a
 * module built for another ABI), and USAGE, the CLI's for a command line
 * it cannot run (its --json error object).
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_URL'
  | 'MISSING_NAME'
  | 'UNKNOWN_SKILL'
  | 'UNKNOWN_AGENT'
  | 'ABSOLUTE_PATH'
  | 'PATH_TRAVERSAL'
  | 'PATH_ESCAPE'
  | 'NOT_FOUND'
  | 'TOO_LARGE'
  | 'BAD_REQUEST'
  | 'INTERNAL'
  | 'ABI_MISMATCH'
  | 'USAGE';

export declare class SkilldexError extends Error {
  constructor(code: string, message: string, options?: { cause?: unknown });
  readonly name: 'SkilldexError';
  /** An ErrorCode; typed string so that codes added later still type-check. */
  readonly code: ErrorCode | (string & {});
}

/**
 * A request of the raw form (`call`, wasm/ABI.md): one member per operation,
 * with the fields that operation reads. The engine defines this schema once,
 * in Go (wire.Request and the op table in wire/ops.go); wire/schema_test.go
 * fails when this type disagrees with it. Fields an operation does not read
 * are accepted and ignored; unknown fields are a BAD_REQUEST.
 */
export type Request =
  | ({ op: 'discover' } & LoadContext)
  | { op: 'scanDir'; dir: string; source?: string }
  | ({ op: 'resolve'; url: string } & LoadContext)
  | ({ op: 'listFiles'; name: string } & LoadContext)
  | ({ op: 'renderPrompt' } & PromptOptions)
  | ({ op: 'expandCommand'; text: string } & ExpandOptions)
  | ({ op: 'commands' } & LoadContext)
  | ({ op: 'contextFiles' } & LoadContext)
  | { op: 'validate'; dir: string }
  | ({ op: 'explain'; name: string } & LoadContext)
  | ({ op: 'match'; paths: string[] } & LoadContext)
  | ({ op: 'activate'; name: string } & LoadContext)
  | ({ op: 'toolDefinition' } & LoadContext)
  | { op: 'agents' }
  | ({ op: 'where'; dir: string } & LoadContext);

export interface SkilldexOptions extends LoadContext {
  /**
   * The filesystem. Default: the runtime's node:fs (Node, Deno, Bun), and
   * then cwd and home default to the process's. There is no default in a
   * browser.
   */
  fs?: FileSystem;
  /**
   * The module: bytes, a compiled module, a URL (fetched) or a function
   * returning one of those. Default: the skilldex.wasm shipped beside
   * index.js. It is compiled once per process (per distinct source).
   */
  wasm?: ArrayBuffer | ArrayBufferView | WebAssembly.Module | URL | (() => Promise<ArrayBuffer | ArrayBufferView | WebAssembly.Module | Response>);
  /**
   * The frontmatter module (the complete YAML path, wasm/ABI.md#the-frontmatter-module), in the same forms as
   * `wasm`. Default: the skilldex-frontmatter.wasm shipped beside index.js. It is loaded only the first time the
   * engine's own scanner declines a SKILL.md or validate runs; a URL or a function is loaded up front instead
   * (an import cannot wait for it).
   */
  frontmatterWasm?: ArrayBuffer | ArrayBufferView | WebAssembly.Module | URL | (() => Promise<ArrayBuffer | ArrayBufferView | WebAssembly.Module | Response>);
  /** Receives what the module writes to stdout/stderr (only on fatal errors). Default: kept for error messages only. */
  stderr?: (text: string) => void;
  /**
   * Run the module and the runtime's own node:fs in a worker thread
   * (node:worker_threads, in Node, Deno and Bun), so that no call blocks
   * the caller's thread; large replies are parsed a few milliseconds at a
   * time. Same methods, results and errors as in-thread. The worker starts
   * at the first call, is reused, never keeps the process alive while no
   * call is waiting, and `close()` ends it. Cannot be combined with `fs`
   * (createSkilldex throws INVALID_ARGUMENT). Default false.
   */
  worker?: boolean;
}

/** What changed between two discoveries of a watch: skills by name. */
export interface SkillChange {
  /** The new discovery (with its S54 digest). */
  result: DiscoverResult;
  /** Skills loaded now whose name was not loaded before. */
  added: Skill[];
  /** Skills loaded before whose name is not loaded now (their old objects). */
  removed: Skill[];
  /**
   * Skills loaded before and now whose object changed, or whose SKILL.md
   * changed, body included (S59: its file version moved; a touch or chmod
   * counts too), the new objects. Reread a cached skill's text for these.
   */
  changed: Skill[];
}

/** One skill that applies to the paths of a match (S55). */
export interface SkillMatch {
  name: string;
  /** "alwaysApply": the skill applies whatever the paths; "globs": one of its globs matched. */
  reason: 'alwaysApply' | 'globs';
  /** The matching paths as given, in input order; empty for alwaysApply. */
  paths: string[];
}

export interface MatchResult {
  /** In S15 order. */
  skills: SkillMatch[];
  /** One per globs pattern that does not compile (the pattern is skipped). */
  warnings: Warning[];
}

export interface WatchOptions {
  /** Quiet period after the last change before discovery runs again. Default 100 ms. */
  debounceMs?: number;
  /**
   * The most directories watched at once (one OS watcher each). Default
   * 1000. Past it, skill folders that do not fit are not watched one by one
   * (their root still is) and a discovery runs every `pollMs` instead.
   */
  maxWatchers?: number;
  /** The polling period used only past maxWatchers or when the OS refuses a watcher. Default 5000 ms. */
  pollMs?: number;
  /** Keep the process alive while the watch is open (as fs.watch). Default true; Deno always does. */
  persistent?: boolean;
  /** Receives errors of later discoveries and exceptions thrown by onChange. Default: ignored. */
  onError?: (error: unknown) => void;
  /** Ends the watch when it aborts, as close() does; `ready`, if not settled yet, rejects with an AbortError (S74). */
  signal?: AbortSignal;
}

export interface WatchHandle {
  /** The first discovery, once the watchers are set up; rejects (and closes the watch) when it fails. */
  readonly ready: Promise<DiscoverResult>;
  /** The latest discovery (undefined before ready). */
  readonly result: DiscoverResult | undefined;
  /** The number of directories watched now. */
  readonly watching: number;
  /** Stop watching: every OS watcher and timer ends. */
  close(): Promise<void>;
}

export interface EngineStats {
  /** Current size of the instance's linear memory in bytes (0 before the first call). */
  memoryBytes: number;
  /** Instances created so far (more than 1 after a crash). */
  instances: number;
  /** Instances of the frontmatter module created so far: 0 while the engine's scanner has read every SKILL.md. */
  frontmatterInstances: number;
  /**
   * Frontmatters the engine handed to the frontmatter module (the complete
   * path, wasm/ABI.md#parse_frontmatter) so far: 0 while its scanner has
   * read every SKILL.md.
   */
  frontmatterParses: number;
  /** Calls made so far. */
  calls: number;
  /**
   * SKILL.md reads answered by the read-ahead worker so far (over the
   * runtime's default filesystem in Node, Deno and Bun; 0 with a custom
   * filesystem and in worker mode).
   */
  prefetchedReads: number;
}

/** An engine: one module instance over one filesystem; calls are queued. */
export interface Skilldex {
  discover(ctx?: LoadContext & CallOptions): Promise<DiscoverResult>;
  scanDir(dir: PathLike, opts?: { source?: string } & CallOptions): Promise<ScanResult>;
  /** url: a skill:// URL, as a string or a URL object. */
  resolve(url: string | URL, ctx?: LoadContext & CallOptions): Promise<Resource>;
  listFiles(name: string, ctx?: LoadContext & CallOptions): Promise<FileList>;
  renderPrompt(opts?: PromptOptions & CallOptions): Promise<Prompt>;
  /**
   * null when the text is not a skill command (SPEC S35), commands are
   * disabled, or it names a skill with user-invocable: false (S47). A command
   * that names no skill rejects (S75): UNKNOWN_SKILL, whose message has "Did
   * you mean" and "Available" lines (S50), or MISSING_NAME for "/skill:" alone.
   */
  expandCommand(text: string, opts?: ExpandOptions & CallOptions): Promise<Expansion | null>;
  commands(ctx?: LoadContext & CallOptions): Promise<CommandList>;
  contextFiles(ctx?: LoadContext & CallOptions): Promise<ContextFiles>;
  /** dir: a skill folder, its SKILL.md, or a skills root (S51). */
  validate(dir: PathLike, opts?: CallOptions): Promise<Validation>;
  explain(name: string, ctx?: LoadContext & CallOptions): Promise<Explanation>;
  /**
   * The raw form: a request (object or JSON string, wasm/ABI.md) in, the
   * engine's exact reply string out, including error replies (it does not
   * reject for those). Rejects only when the module crashed (or the signal
   * aborted). The request goes as it is: its paths must be absolute strings.
   */
  call(request: string | Request | { op: string; [field: string]: unknown }, opts?: CallOptions): Promise<string>;
  /**
   * The skills that apply to paths (S55): every loaded skill with
   * alwaysApply: true, and every skill whose globs match one of the paths
   * (relative to cwd, or absolute under it; a pattern without "/" matches
   * the base name, one with "/" the whole relative path, "**" crosses
   * directories).
   */
  match(paths: PathLike[], ctx?: LoadContext & CallOptions): Promise<MatchResult>;
  /**
   * Load a skill for the model (S69, S70, S72), as the result of the
   * activation tool: `content` is the text to give the model. Only skills
   * the model may invoke (not disable-model-invocation, S47); another name
   * rejects with UNKNOWN_SKILL.
   */
  activate(name: string, ctx?: LoadContext & CallOptions): Promise<Activation>;
  /**
   * The activation tool to register with the model (S71): `name` is an enum
   * of the names activate accepts. null when there is none: register no tool.
   */
  toolDefinition(ctx?: LoadContext & CallOptions): Promise<ToolDefinition | null>;
  /** The agent table (SPEC S64): the coding agents that read Agent Skills and their folders. */
  agents(o?: CallOptions): Promise<AgentTable>;
  /**
   * Which agents load the skill folder dir (one holding a SKILL.md) for
   * ctx's cwd and home, under which name, and what keeps it out (SPEC
   * S67). Of ctx.options only `agents` (which agents to ask) and `env`
   * count.
   */
  where(dir: PathLike, ctx?: LoadContext & CallOptions): Promise<WhereResult>;
  /**
   * Watch what a discovery with ctx depends on (its roots, missing roots
   * through their nearest existing ancestor, skill folders and SKILL.md
   * files, the plugin registry, the project's bounds), and call onChange
   * after a quiet period whenever the discovery's digest (S54) changed or
   * a loaded skill's SKILL.md changed, body included (S59).
   * Needs the runtime's own filesystem (not a custom `fs`).
   */
  watch(ctx: LoadContext | undefined, onChange: (change: SkillChange) => void, opts?: WatchOptions): WatchHandle;
  /** Compile and instantiate now instead of at the first call. */
  ready(opts?: CallOptions): Promise<void>;
  /** Drop the instance (the next call creates a new one); in worker mode, end the worker after the calls made so far. */
  close(): Promise<void>;
  stats(): EngineStats;
}

export declare function createSkilldex(opts?: SkilldexOptions): Skilldex;

/** The operations of a shared default Skilldex (node:fs, the process's cwd and home). */
export declare const discover: Skilldex['discover'];
export declare const scanDir: Skilldex['scanDir'];
export declare const resolve: Skilldex['resolve'];
export declare const listFiles: Skilldex['listFiles'];
export declare const renderPrompt: Skilldex['renderPrompt'];
export declare const expandCommand: Skilldex['expandCommand'];
export declare const commands: Skilldex['commands'];
export declare const contextFiles: Skilldex['contextFiles'];
export declare const validate: Skilldex['validate'];
export declare const explain: Skilldex['explain'];
export declare const match: Skilldex['match'];
export declare const activate: Skilldex['activate'];
export declare const toolDefinition: Skilldex['toolDefinition'];
export declare const agents: Skilldex['agents'];
export declare const where: Skilldex['where'];
export declare const call: Skilldex['call'];

/**
 * A FileSystem over node:fs (pass the module: `import fs from 'node:fs'`).
 * With root, the host directory root is served as "/" and realpath strips it
 * back off (a path that resolves outside root does not exist).
 */
export declare function createNodeFS(fs: object, opts?: { root?: string }): BytesFileSystem;

/**
 * An in-memory filesystem with Linux path semantics (symlinks relative to
 * their directory or absolute from this root, 40 links at most, kernel
 * error codes).
 */
export declare class MemoryFS implements StringFileSystem {
  constructor();
  /** Create or replace a file, creating parent directories. */
  writeFile(path: string, data: string | Uint8Array): this;
  /** mkdir -p. */
  mkdir(path: string): this;
  /** Create a symlink at path pointing to target (stored as written). */
  symlink(target: string, path: string): this;
  readDir(path: string): { name: string; type: FileType }[];
  stat(path: string): FileType;
  lstat(path: string): FileType;
  readFile(path: string): Uint8Array;
  readFileInto(path: string, buf: Uint8Array): number;
  realpath(path: string): string;
}

/** The wasm ABI version this package speaks (wasm/ABI.md). */
export declare const ABI_VERSION: 5;
