export { loadConfig } from "./config"
export type { ServerConfig } from "./config"
export { serve } from "./server"
