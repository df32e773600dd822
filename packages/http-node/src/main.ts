#!/usr/bin/env node
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { loadConfig } from "./config"
import { serve } from "./server"

/** Runs until SIGTERM or SIGINT, then shuts down gracefully. */
const main = Effect.flatMap(loadConfig, serve).pipe(Effect.zipRight(Effect.never), Effect.scoped)

NodeRuntime.runMain(main.pipe(Effect.provide(Layer.empty)))
