/**
 * Our A2A extension for interfaces that are NOT A2A protocol bindings.
 *
 * An A2A Agent Card lists in `supportedInterfaces` the URLs where the agent speaks A2A
 * itself, each with a `protocolBinding` (JSONRPC, GRPC, HTTP+JSON, or a custom binding,
 * which must still carry every A2A operation: message send, tasks, streaming...). The
 * directory speaks no A2A binding: it offers an MCP server (`/mcp`) and a REST API
 * (`/api/v1`, described by `/openapi.json`). Listing those in `supportedInterfaces` would
 * make an A2A client (for example `@a2a-js/sdk`'s `ClientFactory`) send A2A messages to an
 * endpoint that does not understand them. So the cards we serve point to them through an
 * A2A extension (`capabilities.extensions[]`, A2A §4.4 `AgentExtension`, `required: false`,
 * so a client that does not know it ignores it) whose `params.interfaces` names each
 * interface by its own protocol, and through `documentationUrl`.
 *
 * The URI identifies this extension (its version is the last path segment); it is fixed,
 * not the deployment's origin, so a client recognises it on every directory's cards.
 */
import { Schema } from "effect"

/** The extension's URI (`AgentExtension.uri`). */
export const NonA2aInterfacesExtensionUri = "https://agent-directory.dev/a2a/extensions/non-a2a-interfaces/v1"

/**
 * One interface that is not an A2A binding: `protocol` names its protocol (`MCP`, `REST`,
 * or an ERC-8004 endpoint's name such as `MCP`, `OASF`, `ENS`), `url` where it is,
 * `protocolVersion` the protocol's version when known (MCP `2025-06-18`), and for a REST API
 * the URL of its OpenAPI description (`openApiUrl`).
 */
export const NonA2aInterface = Schema.Struct({
  protocol: Schema.String,
  url: Schema.String,
  protocolVersion: Schema.optionalWith(Schema.String, { exact: true }),
  transport: Schema.optionalWith(Schema.String, { exact: true }),
  openApiUrl: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "NonA2aInterface" })
export type NonA2aInterface = typeof NonA2aInterface.Type

/** The extension entry of a card's `capabilities.extensions` listing `interfaces`. */
export const nonA2aInterfacesExtension = (description: string, interfaces: ReadonlyArray<NonA2aInterface>) => ({
  uri: NonA2aInterfacesExtensionUri,
  description,
  required: false,
  params: { interfaces }
})
