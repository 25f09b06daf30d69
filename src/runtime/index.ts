/**
 * The runtime area's face: what other areas may use of it. Other areas import this module
 * only (.dependency-cruiser.cjs, `area-internals`); the area's Repos stay inside.
 * - `stopWorkspaceSchedules`: stops every schedule of a workspace's agents (closing a workspace).
 */
export { stopWorkspaceSchedules } from "./schedules/WorkspaceSchedules.js"
