/**
 * The digest of an MCP catalog (spec §2.16 `digest`): `sha256:` + the hex SHA-256 of
 * the canonical JSON (`layers/CanonicalJson.ts`) of the catalog's content —
 * protocolVersion, serverIdentity, capabilities, tools, resources, resourceTemplates
 * and prompts. Observation metadata (observedAt, expiresAt, cacheMetadata) is left
 * out, so the digest changes exactly when what the server offers changes.
 */
import { createHash } from "node:crypto"
import { canonicalJson } from "../../../layers/CanonicalJson.js"

/** The content of a catalog that its digest covers. */
export interface CatalogContent {
  readonly protocolVersion: string
  readonly serverIdentity: unknown
  readonly capabilities: unknown
  readonly tools: unknown
  readonly resources: unknown
  readonly resourceTemplates: unknown
  readonly prompts: unknown
}

/** `sha256:<64 hex>` of the canonical JSON of `c`'s content. */
export const catalogDigest = (c: CatalogContent): string =>
  "sha256:" + createHash("sha256").update(canonicalJson({
    protocolVersion: c.protocolVersion,
    serverIdentity: c.serverIdentity,
    capabilities: c.capabilities,
    tools: c.tools,
    resources: c.resources,
    resourceTemplates: c.resourceTemplates,
    prompts: c.prompts
  })).digest("hex")
