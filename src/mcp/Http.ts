/** HTTP handlers of the MCP area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Mcp } from "./Mcp.js"
import { McpConnections } from "./connections/Connections.js"
import { McpOAuth } from "./oauth/McpOAuth.js"

export const McpHttpLive = group(Api, "MCP", (handlers) =>
  Effect.gen(function*() {
    const mcp = yield* Mcp
    const connections = yield* McpConnections
    const mcpOAuth = yield* McpOAuth
    const envelope = yield* Envelope
    return handlers
      .handle("getMcpCatalog", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          mcp.getCatalog({
            entityPublicId: path.entityPublicId,
            connectionId: path.connectionPublicId,
            accountId: session.accountId
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("beginMcpOAuth", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          mcpOAuth.beginOAuth({
            entityPublicId: path.entityPublicId,
            connectionId: path.connectionPublicId,
            accountId: session.accountId,
            scopes: payload.scopes
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("createMcpConnection", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          connections.create({ entityPublicId: path.entityPublicId, accountId: session.accountId, body: payload })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("listMcpConnections", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          connections.list({ entityPublicId: path.entityPublicId, accountId: session.accountId })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("getMcpConnection", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          connections.get({
            entityPublicId: path.entityPublicId,
            accountId: session.accountId,
            connectionId: path.connectionPublicId
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("refreshMcpCatalog", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          connections.refresh({
            entityPublicId: path.entityPublicId,
            accountId: session.accountId,
            connectionId: path.connectionPublicId
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("completeMcpOAuth", ({ urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          mcpOAuth.completeOAuth({ accountId: session.accountId, query: urlParams }).pipe(Effect.flatMap(envelope.data))))
  }))
