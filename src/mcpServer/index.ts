/**
 * The MCP server area's face: what the A2A interface (src/a2aServer) shares with it: the directory's tools
 * (`directoryTool`, `DirectoryTool`, `ToolServices`) and their runner (`makeToolRunner`, `ToolRunner`, `CallContext`).
 * Other areas import this module only (.dependency-cruiser.cjs, `area-internals`).
 */
export type { CallContext, ToolRunner } from "./DirectoryServer.js"
export { makeToolRunner } from "./ToolRunner.js"
export { directoryTool, type DirectoryTool, type ToolServices } from "./Tools.js"
