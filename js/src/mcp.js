// @ts-check
// The Model Context Protocol server of `skilldex mcp` (SPEC S77-S80): every
// skill a user has, served to any MCP client over stdio through the
// engine's own operations (discover, resolve, listFiles, expandCommand,
// renderPrompt, watch), so a client gets the answers every other runtime
// gets.
//
// Only the CLI's mcp command imports this module. index.js and what it
// imports never do, so the library keeps no runtime dependency; the MCP
// SDK is a dependency of the package for the CLI's sake
// (docs/RATIONALE.md, "Why is `skilldex mcp` in the package, on the
// official SDK?").
//
// What a client gets (S77):
//   - resources: skill://<name> for every loaded skill (its SKILL.md as
//     resolve serves it), paginated; the template skill://{name}/{path}
//     for the files of a skill, read through resolve (S31-S33, S44, S45);
//   - prompts: one per /skill: command (S37), prompts/get answering with
//     expandCommand's message (S35, S36);
//   - tools: activate_skill (its name an enum of the skills the model may
//     activate) and read_skill_file (a skill:// URL); no tool runs
//     anything;
//   - instructions: renderPrompt's block (S34, S53).
// Roots and changes (S79): discovery runs for each root the client
// announces, and a watch of each sends list_changed notifications.
// Bounds (S80): every request and reply is bounded, and a malformed
// message is answered with a JSON-RPC error while the server goes on.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
  ListToolsRequestSchema,
  CallToolRequestSchema,
  CompleteRequestSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** @typedef {import('../index.js').Skilldex} Skilldex */
/** @typedef {import('../index.js').Skill} Skill */
/** @typedef {import('../index.js').DiscoverResult} DiscoverResult */
/** @typedef {import('../index.js').LoadContext} LoadContext */

/** Items per page of resources/list and prompts/list (S77). */
export const PAGE_SIZE = 100;
/** The longest message a client may send, in bytes (S80). */
export const MAX_MESSAGE_BYTES = 1 << 20;
/** activate_skill's name schema lists the names while their JSON is at most this long (S78). */
export const MAX_ENUM_BYTES = 64 << 10;
/** Roots taken from a client (S79); more are ignored. */
export const MAX_ROOTS = 16;
/** Resource subscriptions kept at once (S80). */
export const MAX_SUBSCRIPTIONS = 1000;
/** The default bound of the server instructions, in characters (S77, S53). */
export const DEFAULT_INSTRUCTIONS_CHARS = 8000;
/** The template of the files of a skill. */
export const FILE_TEMPLATE = 'skill://{name}/{path}';

// MCP's "resource not found" (resources/read).
const RESOURCE_NOT_FOUND = -32002;
// At most this many values in a completion (MCP's own bound).
const MAX_COMPLETIONS = 100;

/**
 * A JSON-RPC error as the SDK sends it: the number as code, the message as
 * written (McpError would prefix "MCP error <code>:"), data when given.
 */
class RPCError extends Error {
  /**
   * @param {number} code
   * @param {string} message
   * @param {unknown} [data]
   */
  constructor(code, message, data) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

// C0 and C1 controls but TAB, and DEL: shown as U+FFFD when input is quoted (S58).
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/** Input quoted in a message (S58): its first 200 characters, then "…", controls as U+FFFD. */
export function quote(/** @type {unknown} */ value) {
  const chars = [...String(value)];
  const s = chars.length > 200 ? chars.slice(0, 200).join('') + '…' : chars.join('');
  return s.replace(CONTROL, '\ufffd');
}

/**
 * The skill:// URL of a skill, or of one of its files: the name
 * percent-encoded (S29 decodes it), ":" and "@" kept readable.
 * @param {string} name
 * @param {string} [file]
 */
export function skillURL(name, file) {
  const encoded = encodeURIComponent(name).replace(/%3A/g, ':').replace(/%40/g, '@');
  return 'skill://' + encoded + (file === undefined ? '' : '/' + file.split('/').map(encodeURIComponent).join('/'));
}

/**
 * The skill name a skill:// URL names (S29), or null when it is not one
 * (the engine then answers with its own error).
 * @param {string} url
 */
export function skillNameOf(url) {
  const m = /^skill:\/\/([^/?#]*)/i.exec(url);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** S15's order: lower-cased names, then names. */
const byName = (/** @type {string} */ a, /** @type {string} */ b) => {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

/**
 * The text activate_skill returns for the skill name of ctx (S78): the
 * engine's activation of it (S69, S70, S72), as every runtime gives it.
 * @param {Skilldex} engine
 * @param {string} name
 * @param {LoadContext} ctx
 */
export async function activationText(engine, name, ctx) {
  return (await engine.activate(name, ctx)).content;
}

/**
 * activate_skill's definition for the names the model may activate (S78):
 * the name an enum of them while it stays within MAX_ENUM_BYTES. Not the
 * engine's toolDefinition(), which answers for one load context: the
 * server's names come from every root it serves.
 * @param {string[]} names
 */
export function activateToolDefinition(names) {
  /** @type {{type: 'string', description: string, enum?: string[]}} */
  const nameSchema = { type: 'string', description: 'The name of the skill to activate.' };
  if (new TextEncoder().encode(JSON.stringify(names)).length <= MAX_ENUM_BYTES) nameSchema.enum = names;
  return {
    name: 'activate_skill',
    title: 'Activate a skill',
    description:
      "Load a skill's instructions. When a task matches a skill's description (the server instructions list them), " +
      'call this with its name and follow what it returns. It returns the SKILL.md, the skill folder and its other files.',
    inputSchema: { type: /** @type {const} */ ('object'), properties: { name: nameSchema }, required: ['name'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

const READ_TOOL = {
  name: 'read_skill_file',
  title: 'Read a file of a skill',
  description:
    'Read a file of a skill by its skill:// URL: skill://<name> is its SKILL.md, skill://<name>/<path> a file in its folder ' +
    '(the paths activate_skill lists, or that its instructions name). Returns the text; nothing is run.',
  inputSchema: {
    type: /** @type {const} */ ('object'),
    properties: { url: { type: 'string', description: 'A skill:// URL, e.g. skill://pdf/reference.md' } },
    required: ['url'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** A tool's failure as MCP tool errors are: the text for the model, the engine's code with it (S78). */
const toolError = (/** @type {string} */ code, /** @type {string} */ message) => ({
  isError: true,
  content: [{ type: 'text', text: `${code}: ${message}` }],
  structuredContent: { error: { code, message } },
});

/** An engine error as a tool error. */
const toolErrorFrom = (/** @type {any} */ e) =>
  toolError(typeof e?.code === 'string' ? e.code : 'INTERNAL', typeof e?.message === 'string' ? e.message : String(e));

/**
 * An engine error as a JSON-RPC error: the engine's code as data.code, and
 * notFound for an unknown skill or a missing file.
 * @param {any} e
 * @param {number} notFound
 */
function rpcErrorFrom(e, notFound) {
  const code = typeof e?.code === 'string' ? e.code : 'INTERNAL';
  const message = typeof e?.message === 'string' ? e.message : String(e);
  if (code === 'INTERNAL') return new RPCError(ErrorCode.InternalError, message, { code });
  return new RPCError(code === 'UNKNOWN_SKILL' || code === 'NOT_FOUND' ? notFound : ErrorCode.InvalidParams, message, { code });
}

/**
 * A stdio transport that answers what it cannot read (S80): a line that is
 * not JSON gets a parse error, a JSON value that is not a JSON-RPC message
 * an invalid-request error (with its id when it has one), a line over
 * maxMessageBytes an invalid-request error while its bytes are skipped to
 * the next newline; blank lines are ignored. The SDK's own stdio transport
 * drops such lines silently, and closes on a long one.
 */
export class LineTransport {
  /**
   * @param {NodeJS.ReadableStream} stdin
   * @param {NodeJS.WritableStream} stdout
   * @param {{maxMessageBytes?: number}} [opts]
   */
  constructor(stdin, stdout, opts = {}) {
    this.stdin = stdin;
    this.stdout = stdout;
    this.maxMessageBytes = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    /** @type {((message: any) => void) | undefined} */
    this.onmessage = undefined;
    /** @type {((error: Error) => void) | undefined} */
    this.onerror = undefined;
    /** @type {(() => void) | undefined} */
    this.onclose = undefined;
    /** @type {Uint8Array[]} */
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    this.closed = false;
    this.onData = this.onData.bind(this);
    this.onEnd = () => void this.close();
    this.onStreamError = (/** @type {Error} */ e) => {
      this.onerror?.(e);
      void this.close();
    };
  }

  async start() {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  /** @param {Uint8Array | string} chunk */
  onData(chunk) {
    let buf = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    while (buf.length > 0 && !this.closed) {
      const nl = buf.indexOf(0x0a);
      const part = nl < 0 ? buf : buf.subarray(0, nl);
      if (!this.skipping) {
        if (this.pendingBytes + part.length > this.maxMessageBytes) {
          this.pending = [];
          this.pendingBytes = 0;
          this.skipping = true;
          this.reply(null, ErrorCode.InvalidRequest,
            `Invalid Request: a message is longer than ${this.maxMessageBytes} bytes; the server skips it (send shorter messages, one per line)`);
        } else if (part.length > 0) {
          this.pending.push(part);
          this.pendingBytes += part.length;
        }
      }
      if (nl < 0) return;
      if (this.skipping) {
        this.skipping = false;
      } else {
        const bytes = new Uint8Array(this.pendingBytes);
        let off = 0;
        for (const p of this.pending) {
          bytes.set(p, off);
          off += p.length;
        }
        this.pending = [];
        this.pendingBytes = 0;
        this.line(new TextDecoder().decode(bytes));
      }
      buf = buf.subarray(nl + 1);
    }
  }

  /** @param {string} text */
  line(text) {
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(null, ErrorCode.ParseError, 'Parse error: a line is not JSON; send one JSON-RPC message per line');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value !== null && typeof value === 'object' && !Array.isArray(value) ? value.id : undefined;
      const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
      this.reply(validId, ErrorCode.InvalidRequest,
        Array.isArray(value) ? 'Invalid Request: batches are not supported; send one message per line' : 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /**
   * @param {string | number | null} id
   * @param {number} code
   * @param {string} message
   */
  reply(id, code, message) {
    this.send({ jsonrpc: '2.0', id, error: { code, message } }).catch((e) => this.onerror?.(e));
  }

  /** @param {unknown} message */
  send(message) {
    return new Promise((resolve, reject) => {
      if (this.closed) return resolve(undefined);
      this.stdout.write(JSON.stringify(message) + '\n', (err) => (err ? reject(err) : resolve(undefined)));
    });
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.onclose?.();
  }
}

/**
 * @typedef {{cwd: string, ctx: LoadContext, result: DiscoverResult, handle: import('../index.js').WatchHandle | null}} Root
 * @typedef {{skill: Skill, root: Root}} Entry
 * @typedef {{entries: Entry[], byName: Map<string, Entry>, resources: any[], prompts: any[], tools: any[]}} View
 */

/**
 * Serve MCP on stdin and stdout until the client closes stdin.
 * @param {{
 *   engine: Skilldex,
 *   context: LoadContext & {cwd: string},
 *   cwdGiven: boolean,
 *   version: string,
 *   stdin: NodeJS.ReadableStream,
 *   stdout: NodeJS.WritableStream,
 *   log?: (line: string) => void,
 *   maxChars?: number,
 *   debounceMs?: number,
 * }} opts
 */
export async function serveMCP(opts) {
  const { engine, context, cwdGiven, version } = opts;
  const log = opts.log ?? (() => {});
  const watchOptions = { debounceMs: opts.debounceMs, onError: (/** @type {unknown} */ e) => log(`watch: ${errorText(e)}`) };

  /** @type {Root[]} */
  let roots = [];
  /** @type {View} */
  let view = buildView([]);
  let initialized = false;
  let closed = false;
  /** @type {Set<string>} */
  const subscriptions = new Set();
  /** @type {Server | null} */
  let server = null;

  /**
   * A root: a discovery of context with cwd, watched; a root whose watch
   * cannot start (the OS refused) is discovered once.
   * @param {string} cwd
   * @returns {Promise<Root>}
   */
  async function openRoot(cwd) {
    const ctx = { ...context, cwd };
    /** @type {Root} */
    const root = { cwd, ctx, result: { skills: [], warnings: [], shadowed: [], digest: '' }, handle: null };
    try {
      root.handle = engine.watch(ctx, (change) => {
        root.result = change.result;
        if (roots.includes(root)) refresh(change);
      }, watchOptions);
      root.result = await root.handle.ready;
    } catch (e) {
      log(`${cwd}: cannot watch (${errorText(e)}); discovered once`);
      root.handle = null;
      try {
        root.result = await engine.discover(ctx);
      } catch (e2) {
        log(`${cwd}: ${errorText(e2)}`);
      }
    }
    for (const w of root.result.warnings) log(`warning: ${w.message}`);
    return root;
  }

  /**
   * Serve the roots with these cwds (S79), keeping the roots already open.
   * @param {string[]} cwds
   */
  async function setRoots(cwds) {
    const unique = [...new Set(cwds)];
    /** @type {Root[]} */
    const next = [];
    for (const cwd of unique) next.push(roots.find((r) => r.cwd === cwd) ?? (await openRoot(cwd)));
    const gone = roots.filter((r) => !next.includes(r));
    roots = next;
    for (const r of gone) await r.handle?.close();
    refresh(null);
  }

  /**
   * Recompute what is served; tell the client what changed (S79).
   * @param {import('../index.js').SkillChange | null} change
   */
  function refresh(change) {
    const before = view;
    view = buildView(roots);
    if (!initialized || closed || !server) return;
    const s = server;
    const send = (/** @type {() => Promise<void>} */ f) => f().catch((e) => log(`notification: ${errorText(e)}`));
    if (JSON.stringify(before.resources) !== JSON.stringify(view.resources)) send(() => s.sendResourceListChanged());
    if (JSON.stringify(before.prompts) !== JSON.stringify(view.prompts)) send(() => s.sendPromptListChanged());
    if (JSON.stringify(before.tools) !== JSON.stringify(view.tools)) send(() => s.sendToolListChanged());
    if (change && subscriptions.size) {
      const touched = new Set([...change.added, ...change.removed, ...change.changed].map((k) => k.name));
      for (const uri of subscriptions) {
        const name = skillNameOf(uri);
        if (name !== null && touched.has(name)) send(() => s.sendResourceUpdated({ uri }));
      }
    }
  }

  /** The root serving name: the one it was found in, else the first (whose engine error then answers). */
  const rootOf = (/** @type {string | null} */ name) => (name !== null ? view.byName.get(name)?.root : undefined) ?? roots[0];

  // ---- requests

  /** @param {{cursor?: string}} params @param {any[]} items @param {string} key */
  function page(params, items, key) {
    let start = 0;
    if (params.cursor !== undefined) {
      if (!/^\d{1,9}$/.test(params.cursor) || Number(params.cursor) > items.length) {
        throw new RPCError(ErrorCode.InvalidParams, `Invalid cursor: ${quote(params.cursor)}; list again without a cursor`);
      }
      start = Number(params.cursor);
    }
    const end = start + PAGE_SIZE;
    return { [key]: items.slice(start, end), ...(end < items.length ? { nextCursor: String(end) } : {}) };
  }

  /** @param {{uri: string}} params */
  async function readResource(params) {
    const root = rootOf(skillNameOf(params.uri));
    try {
      const r = await engine.resolve(params.uri, root.ctx);
      return { contents: [{ uri: params.uri, mimeType: r.contentType, text: r.content }] };
    } catch (e) {
      throw rpcErrorFrom(e, RESOURCE_NOT_FOUND);
    }
  }

  /** @param {{name: string, arguments?: Record<string, string>}} params */
  async function getPrompt(params) {
    const entry = view.byName.get(params.name);
    if (!entry || entry.skill.userInvocable === false) {
      throw new RPCError(ErrorCode.InvalidParams, `Unknown prompt: ${quote(params.name)}; prompts/list gives the prompts`);
    }
    const args = params.arguments?.args ?? '';
    let expansion;
    try {
      expansion = await engine.expandCommand(`/skill:${params.name}${args ? ' ' + args : ''}`, entry.root.ctx);
    } catch (e) {
      throw rpcErrorFrom(e, ErrorCode.InvalidParams);
    }
    if (!expansion || expansion.name !== params.name) {
      // S49: the arguments continue the name of another skill ("a" with "b c" when "a b" exists).
      throw new RPCError(ErrorCode.InvalidParams,
        `The arguments make the command name another skill${expansion ? ` (${quote(expansion.name)})` : ''}; start the arguments differently`);
    }
    return {
      description: entry.skill.description,
      messages: [{ role: 'user', content: { type: 'text', text: expansion.message } }],
    };
  }

  /** @param {{name: string, arguments?: Record<string, unknown>}} params */
  async function callTool(params) {
    const args = params.arguments ?? {};
    if (params.name === 'activate_skill') {
      const name = args.name;
      if (typeof name !== 'string') return toolError('INVALID_ARGUMENT', 'activate_skill takes {"name": "<skill name>"}');
      const entry = view.byName.get(name);
      if (entry?.skill.disableModelInvocation) {
        return toolError('INVALID_ARGUMENT',
          `Skill ${quote(name)} is not for the model to activate (disable-model-invocation: true); a user runs it as the prompt ${quote(name)}`);
      }
      const root = entry?.root ?? roots[0];
      try {
        return { content: [{ type: 'text', text: await activationText(engine, name, root.ctx) }] };
      } catch (e) {
        return toolErrorFrom(e);
      }
    }
    if (params.name === 'read_skill_file') {
      const url = args.url;
      if (typeof url !== 'string') return toolError('INVALID_ARGUMENT', 'read_skill_file takes {"url": "skill://<name>/<path>"}');
      try {
        const r = await engine.resolve(url, rootOf(skillNameOf(url)).ctx);
        return { content: [{ type: 'text', text: r.content }] };
      } catch (e) {
        return toolErrorFrom(e);
      }
    }
    throw new RPCError(ErrorCode.InvalidParams, `Unknown tool: ${quote(params.name)}; tools/list gives the tools`);
  }

  /** @param {{ref: any, argument: {name: string, value: string}, context?: {arguments?: Record<string, string>}}} params */
  async function complete(params) {
    /** @type {string[]} */
    let values = [];
    const { ref, argument } = params;
    if (ref.type === 'ref/resource' && ref.uri === FILE_TEMPLATE) {
      if (argument.name === 'name') {
        values = view.entries.map((e) => e.skill.name).filter((n) => n.startsWith(argument.value));
      } else if (argument.name === 'path') {
        const name = params.context?.arguments?.name;
        const entry = name === undefined ? undefined : view.byName.get(name);
        if (entry) {
          try {
            values = (await engine.listFiles(entry.skill.name, entry.root.ctx)).files.filter((f) => f.startsWith(argument.value));
          } catch {
            // the skill went away: nothing to complete
          }
        }
      }
    }
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  }

  /** @type {Record<string, [{safeParse: (v: unknown) => any}, (params: any) => any]>} */
  const routes = {
    'resources/list': [ListResourcesRequestSchema, (p) => page(p, view.resources, 'resources')],
    'resources/templates/list': [ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [FILE_RESOURCE_TEMPLATE] })],
    'resources/read': [ReadResourceRequestSchema, readResource],
    'resources/subscribe': [SubscribeRequestSchema, (p) => {
      if (!subscriptions.has(p.uri) && subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new RPCError(ErrorCode.InvalidParams, `Too many subscriptions (${MAX_SUBSCRIPTIONS}); unsubscribe from some first`);
      }
      subscriptions.add(p.uri);
      return {};
    }],
    'resources/unsubscribe': [UnsubscribeRequestSchema, (p) => (subscriptions.delete(p.uri), {})],
    'prompts/list': [ListPromptsRequestSchema, (p) => page(p, view.prompts, 'prompts')],
    'prompts/get': [GetPromptRequestSchema, getPrompt],
    'tools/list': [ListToolsRequestSchema, () => ({ tools: view.tools })],
    'tools/call': [CallToolRequestSchema, callTool],
    'completion/complete': [CompleteRequestSchema, complete],
  };

  /**
   * Every request but initialize and ping (the SDK's own): validated here,
   * so invalid params are -32602 with what is wrong, not the SDK's -32603.
   * @param {{method: string, params?: unknown}} request
   */
  async function dispatch(request) {
    const route = Object.hasOwn(routes, request.method) ? routes[request.method] : undefined;
    if (!route) throw new RPCError(ErrorCode.MethodNotFound, `Method not found: ${quote(request.method)}`);
    const parsed = route[0].safeParse(request);
    if (!parsed.success) {
      const issues = (parsed.error?.issues ?? []).map((/** @type {any} */ i) => `${(i.path ?? []).join('.') || 'params'}: ${i.message}`).join('; ');
      throw new RPCError(ErrorCode.InvalidParams, `Invalid params for ${request.method}: ${quote(issues)}`);
    }
    return route[1](parsed.data.params ?? {});
  }

  // ---- start

  await setRoots([context.cwd]);
  const instructions = await serverInstructions(engine, context, opts.maxChars ?? DEFAULT_INSTRUCTIONS_CHARS, log);
  server = new Server(
    { name: 'skilldex', version },
    {
      capabilities: {
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        tools: { listChanged: true },
        completions: {},
      },
      ...(instructions ? { instructions } : {}),
    },
  );
  const s = server;
  s.fallbackRequestHandler = /** @type {any} */ (dispatch);
  s.onerror = (e) => log(errorText(e));

  let rootsUpdate = Promise.resolve();
  const syncRoots = () => {
    rootsUpdate = rootsUpdate.then(async () => {
      if (!s.getClientCapabilities()?.roots) return;
      let listed;
      try {
        listed = (await s.listRoots()).roots;
      } catch (e) {
        log(`roots/list failed, the roots served stay: ${errorText(e)}`);
        return;
      }
      if (listed.length > MAX_ROOTS) log(`the client announced ${listed.length} roots; serving the first ${MAX_ROOTS}`);
      /** @type {string[]} */
      const paths = [];
      for (const r of listed.slice(0, MAX_ROOTS)) {
        try {
          const u = new URL(r.uri);
          if (u.protocol === 'file:') paths.push(path.resolve(fileURLToPath(u)));
          else log(`root ${quote(r.uri)}: not a file: URI; ignored`);
        } catch {
          log(`root ${quote(r.uri)}: not a file: URI; ignored`);
        }
      }
      await setRoots(cwdGiven ? [context.cwd, ...paths] : paths.length ? paths : [context.cwd]);
    }).catch((e) => log(`roots: ${errorText(e)}`));
  };
  s.oninitialized = () => {
    initialized = true;
    syncRoots();
  };
  s.setNotificationHandler(RootsListChangedNotificationSchema, async () => syncRoots());

  const transport = new LineTransport(opts.stdin, opts.stdout);
  const done = new Promise((resolve) => {
    s.onclose = () => {
      closed = true;
      resolve(undefined);
    };
  });
  await s.connect(transport);
  await done;
  await rootsUpdate;
  for (const r of roots) await r.handle?.close();
}

const FILE_RESOURCE_TEMPLATE = {
  uriTemplate: FILE_TEMPLATE,
  name: 'skill-file',
  title: 'A file of a skill',
  description: 'A file in the folder of a loaded skill: skill://<name>/<path>, a path relative to the skill folder (activate_skill lists them).',
};

/**
 * What is served for the roots (S77-S79): the skills of every root, a name
 * taken by an earlier root staying with it, in S15 order.
 * @param {Root[]} roots
 * @returns {View}
 */
function buildView(roots) {
  /** @type {Map<string, Entry>} */
  const named = new Map();
  for (const root of roots) {
    for (const skill of root.result.skills) if (!named.has(skill.name)) named.set(skill.name, { skill, root });
  }
  const entries = [...named.values()].sort((a, b) => byName(a.skill.name, b.skill.name));
  const resources = entries.map(({ skill }) => ({
    uri: skillURL(skill.name),
    name: skill.name,
    description: skill.description,
    mimeType: 'text/markdown',
  }));
  // S37 and S47: user-invocable: false is no command; disable-model-invocation: true is no activation.
  const prompts = entries
    .filter(({ skill }) => skill.userInvocable !== false)
    .map(({ skill }) => ({
      name: skill.name,
      description: skill.description,
      arguments: [{ name: 'args', description: 'What follows /skill:<name> (optional)', required: false }],
    }));
  const activatable = entries.filter(({ skill }) => !skill.disableModelInvocation).map(({ skill }) => skill.name);
  const tools = [];
  if (activatable.length) tools.push(activateToolDefinition(activatable));
  if (entries.length) tools.push(READ_TOOL);
  return { entries, byName: named, resources, prompts, tools };
}

/**
 * The server instructions (S77): renderPrompt's markdown block for the
 * launch context within maxChars, and a line naming this server's read
 * tool; none when no skill is listed.
 * @param {Skilldex} engine
 * @param {LoadContext} context
 * @param {number} maxChars
 * @param {(line: string) => void} log
 */
async function serverInstructions(engine, context, maxChars, log) {
  try {
    const prompt = await engine.renderPrompt({ ...context, maxChars });
    if (!prompt.text) return '';
    if (prompt.omitted.length) log(`instructions: ${prompt.omitted.length} skills left out to stay within ${maxChars} characters (--max-chars)`);
    return prompt.text.trimEnd() + '\n\nOver this server, the read tool is read_skill_file, and activate_skill loads a skill by its name.';
  } catch (e) {
    log(`instructions: ${errorText(e)}`);
    return '';
  }
}

const errorText = (/** @type {any} */ e) => quote(typeof e?.message === 'string' ? e.message : String(e));
