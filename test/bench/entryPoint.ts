import { pathToFileURL } from "node:url"

/** Whether the module at `url` (its `import.meta.url`) is the process's entry point, not imported. */
export const isEntryPoint = (url: string) => process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href
