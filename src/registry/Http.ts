/** HTTP handlers of the MCP subregistry (Registry_ListServers, Registry_ListServerVersions, Registry_GetServerVersion): the registry's shapes, no envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { group } from "../http/group.js"
import { Registry } from "./Registry.js"

export const RegistryHttpLive = group(Api, "Registry", (handlers) =>
  Effect.gen(function*() {
    const registry = yield* Registry
    return handlers
      .handle("listServers", ({ urlParams }) => registry.list(urlParams))
      .handle("listServerVersions", ({ path, urlParams }) => registry.versions(path.serverName, urlParams.include_deleted))
      .handle("getServerVersion", ({ path, urlParams }) => registry.version(path.serverName, path.version, urlParams.include_deleted))
  }))
