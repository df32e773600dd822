import { createRequire as __rodaRequire } from "node:module"; const require = __rodaRequire(import.meta.url);
import {
  So,
  require_postgres_date
} from "./chunk-ICKFJLPN.js";
import {
  __toESM
} from "./chunk-IMZLOIVC.js";

// ../sql-pglite/dist/chunk-EAODBWOU.js
var sendError = (error) => {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields = { name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  }
  return { message: error.message, fields };
};

// ../sql-pglite/dist/chunk-E63G5JFI.js
var import_postgres_date = __toESM(require_postgres_date(), 1);
import { PGlite, types } from "@electric-sql/pglite";
import { existsSync } from "fs";
import { mkdir as mkdir2 } from "fs/promises";
import { fileURLToPath } from "url";
import { mkdir, readdir, rename, rm, rmdir } from "fs/promises";
var isEmptyOrMissing = (dir) => readdir(dir).then((entries) => entries.length === 0, () => true);
var unpackInto = async (dataDir, file) => {
  if (!await isEmptyOrMissing(dataDir)) return false;
  const partial = `${dataDir}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    So({ file, cwd: partial, sync: true });
    await rmdir(dataDir).catch(() => void 0);
    await rename(partial, dataDir);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return true;
};
var loadContrib = async (names) => {
  const loaded = {};
  for (const name of names) {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`Unknown PGlite contrib extension: ${name}`);
    const module = await import(`@electric-sql/pglite/contrib/${name}`);
    const extension = module[name];
    if (extension === void 0) throw new Error(`Unknown PGlite contrib extension: ${name}`);
    loaded[name] = extension;
  }
  return loaded;
};
var checkExtensions = async (extensions) => {
  for (const [name, extension] of Object.entries(extensions)) {
    const where = extension instanceof URL ? extension : await Promise.resolve().then(() => extension.setup(void 0, {}, true)).then((setup) => setup.bundlePath ?? null, () => void 0);
    const missing = where === void 0 ? "cannot be located" : where !== null && where.protocol === "file:" && !existsSync(fileURLToPath(where)) ? `is not at ${fileURLToPath(where)}` : void 0;
    if (missing !== void 0) {
      throw new Error(
        `PGlite's extension archive ${name} ${missing}: was @electric-sql/pglite bundled? Keep it out of the bundle (esbuild --external:@electric-sql/pglite) and installed beside it`
      );
    }
  }
};
var timestampParsers = { [types.TIMESTAMPTZ]: import_postgres_date.default, [types.TIMESTAMP]: import_postgres_date.default };
var isFolder = (dataDir) => dataDir !== void 0 && dataDir !== "memory" && !dataDir.includes("://");
var unpackFirst = (dataDir, options) => options.unpackFrom !== void 0 && isFolder(dataDir) ? unpackInto(dataDir, options.unpackFrom) : Promise.resolve(false);
var createDatabase = async (dataDir, options, runtime2) => {
  const extensions = { ...options.extensions, ...await loadContrib(options.contrib ?? []) };
  await checkExtensions(extensions);
  const common = {
    extensions,
    wasmModule: runtime2.wasmModule,
    fsBundle: runtime2.fsBundle,
    parsers: timestampParsers,
    ...options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}
  };
  if (dataDir === void 0 || dataDir === "memory") return PGlite.create(common);
  if (isFolder(dataDir)) await mkdir2(dataDir, { recursive: true });
  return PGlite.create({ dataDir, ...common });
};

// ../sql-pglite/dist/chunk-PZ5AY32C.js
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// ../sql-pglite/dist/chunk-FHTQQNPZ.js
var TextTable_exports = {};
__export(TextTable_exports, {
  make: () => make
});
var make = () => {
  const byLength = /* @__PURE__ */ new Map();
  let size = 0;
  const find = (text) => byLength.get(text.length)?.find((entry) => entry.text === text);
  return {
    get: (text) => find(text)?.value,
    set: (text, value) => {
      const found = find(text);
      if (found !== void 0) {
        found.value = value;
        return;
      }
      const list = byLength.get(text.length);
      if (list === void 0) byLength.set(text.length, [{ text, value }]);
      else list.push({ text, value });
      size++;
    },
    delete: (text) => {
      const list = byLength.get(text.length);
      const index = list?.findIndex((entry) => entry.text === text) ?? -1;
      if (index < 0) return;
      list.splice(index, 1);
      if (list.length === 0) byLength.delete(text.length);
      size--;
    },
    size: () => size,
    clear: () => {
      byLength.clear();
      size = 0;
    }
  };
};

// ../sql-pglite/dist/chunk-YBWRZUCE.js
import { parse, protocol } from "@electric-sql/pglite";
import { types as types2 } from "@electric-sql/pglite";
var columnsOf = (received) => {
  const description = received.find((message) => message.name === "rowDescription");
  return description?.fields.map(({ dataTypeID, name }) => ({ name, dataTypeID })) ?? [];
};
var affectedRows = (commandTag) => {
  const words = commandTag.split(" ");
  switch (words[0]) {
    case "INSERT":
      return parseInt(words[2], 10);
    case "UPDATE":
    case "DELETE":
    case "COPY":
    case "MERGE":
      return parseInt(words[1], 10);
    default:
      return 0;
  }
};
var toResults = (received, columns, parsers, options) => {
  const parserOf = columns.map(
    ({ dataTypeID }) => options?.parsers?.[dataTypeID] ?? parsers[dataTypeID] ?? types2.parsers[dataTypeID]
  );
  const parseValue = (value, i) => {
    if (value === null) return null;
    const parser = parserOf[i];
    return parser ? parser(value, columns[i].dataTypeID) : value;
  };
  const arrays = options?.rowMode === "array";
  const rows = [];
  for (const message of received) {
    if (message.name === "dataRow") {
      const values = message.fields;
      if (arrays) {
        rows.push(values.map(parseValue));
      } else {
        const row = {};
        for (let i = 0; i < values.length; i++) row[columns[i].name] = parseValue(values[i], i);
        rows.push(row);
      }
    } else if (message.name === "commandComplete") {
      const text = message.text;
      return { rows, fields: columns.slice(), affectedRows: affectedRows(text) };
    }
  }
  return { rows: [], fields: [], affectedRows: 0 };
};
var HOT_AFTER = 3;
var MAX_NAMED = 2e3;
var MAX_SEEN = 1e4;
var namedQuery = (pglite) => {
  const seen = make();
  const named = make();
  const send = (...messages) => pglite.execProtocolStream(Buffer.concat(messages), { syncToFs: false });
  let made = 0;
  const prepare = async (text) => {
    const done = named.get(text);
    if (done !== void 0) return done;
    const name = `roda_${++made}`;
    const described = await send(
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: "S", name }),
      protocol.serialize.sync()
    );
    const entry = { name, types: parse.parseDescribeStatementResults(described), columns: columnsOf(described) };
    named.set(text, entry);
    return entry;
  };
  const run = (text, params, options, known) => pglite.runExclusive(async () => {
    const { columns, name, types: types22 } = known ?? await prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === void 0) return null;
      const serialize = options?.serializers?.[types22[i]] ?? pglite.serializers[types22[i]];
      return serialize ? serialize(value) : String(value);
    });
    const messages = await send(
      protocol.serialize.bind({ statement: name, values }),
      protocol.serialize.execute({}),
      protocol.serialize.sync()
    );
    await pglite.syncToFs();
    return toResults(messages, columns, pglite.parsers, options);
  });
  return (text, params, options) => {
    const known = named.get(text);
    if (known !== void 0) return run(text, params, options, known);
    if (params.length === 0 || named.size() >= MAX_NAMED) return pglite.query(text, [...params], options);
    const count = (seen.get(text) ?? 0) + 1;
    if (count < HOT_AFTER) {
      if (seen.size() >= MAX_SEEN) seen.clear();
      seen.set(text, count);
      return pglite.query(text, [...params], options);
    }
    seen.delete(text);
    return run(text, params, options);
  };
};
var inOrder = () => {
  let last = Promise.resolve();
  return (run) => {
    const next = last.then(run);
    last = next.catch(() => void 0);
    return next;
  };
};
var inThread = (pglite, unpacked) => {
  const named = namedQuery(pglite);
  const queued = inOrder();
  return {
    query: (sql, params, options) => queued(() => named(sql, params, options?.rowMode === void 0 ? void 0 : { rowMode: options.rowMode })),
    exec: (sql) => queued(() => pglite.exec(sql)),
    dumpDataDir: () => queued(() => pglite.dumpDataDir("none")),
    close: () => queued(() => pglite.closed ? Promise.resolve() : pglite.close()),
    unpacked
  };
};

// ../sql-pglite/dist/pglite-worker.js
import { parentPort, workerData } from "worker_threads";
var port = parentPort;
var init = workerData;
var receiveRuntime = () => void 0;
var runtime = new Promise((resolve) => receiveRuntime = resolve);
var open = async () => {
  const options = { contrib: init.contrib, loadDataDir: init.loadDataDir, unpackFrom: init.unpackFrom };
  const unpacked = await unpackFirst(init.dataDir, options);
  return inThread(await createDatabase(init.dataDir, options, await runtime), unpacked);
};
var opened = open();
opened.then(
  (engine) => port.postMessage({ id: 0, value: { unpacked: engine.unpacked } }),
  (error) => port.postMessage({ id: 0, error: sendError(error) })
);
var answer = (engine, request) => {
  switch (request.op) {
    case "query":
      return engine.query(request.sql, request.params, { rowMode: request.rowMode });
    case "exec":
      return engine.exec(request.sql);
    case "dump":
      return engine.dumpDataDir();
    case "close":
      return engine.close();
  }
};
port.on("message", (message) => {
  if (message.op === "runtime") return receiveRuntime(message.runtime);
  const request = message;
  opened.then((engine) => answer(engine, request)).then(
    (value) => port.postMessage({ id: request.id, value })
  ).catch((error) => port.postMessage({ id: request.id, error: sendError(error) })).finally(() => {
    if (request.op === "close") port.close();
  });
});
//# sourceMappingURL=pglite-worker.js.map