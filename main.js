#!/usr/bin/env -S node --max-semi-space-size=64 --expose-gc
import { createRequire as __rodaRequire } from "node:module"; const require = __rodaRequire(import.meta.url);
import {
  embeddedFolder,
  folderClient,
  folderFileOf,
  prestart,
  shippedDirs,
  shippedTemplateKey
} from "./chunk-YBZT6TRW.js";
import "./chunk-IMZLOIVC.js";

// ../core/node/prestart.ts
import { existsSync } from "fs";
var prestartEmbedded = (env = process.env) => {
  if (env.DATABASE_URL !== void 0) return;
  const dataDir = embeddedFolder(env.DATA_DIR);
  if (dataDir === "memory") return;
  const key = shippedTemplateKey();
  const template = key === void 0 ? void 0 : shippedDirs().map((dir) => folderFileOf(dir, key)).find((file) => existsSync(file));
  prestart(folderClient(dataDir, template));
};

// src/main.ts
prestartEmbedded();
await import("./run-U3KMJMIO.js");
//# sourceMappingURL=main.js.map