export { command } from "./cli"
export { EXIT, run, VERSION } from "./run"
