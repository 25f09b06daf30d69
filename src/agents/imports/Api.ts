/**
 * Agent imports contract (our extension, under the spec's Agents tag):
 * import an agent's public description (an A2A Agent Card, an MCP server, an ERC-8004
 * registration file) from a URL, in the background, and read the import. The group has
 * its own identifier ("AgentImports"); `OpenApi.Title` names its OpenAPI tag "Agents",
 * like the analytics group's "Social".
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { AgentImport, ImportAgentSourceRequest } from "../../../schema/agentImports.js"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { AgentNotFound, InvalidState, OutboundTargetRefused, RoleRequired } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { AgentImportNotFound } from "./Errors.js"

export class AgentImportsApi extends HttpApiGroup.make("AgentImports")
  .add(
    HttpApiEndpoint.post("importAgentSource", "/api/v1/agents/:entityPublicId/imports")
      .setPath(Schema.Struct({ entityPublicId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ImportAgentSourceRequest)
      .addSuccess(Data(AgentImport), { status: 202 })
      .pipe(
        operation({
          id: "Agents_ImportAgentSource",
          permission: "agents.import",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 429, 500, 503],
          summary: "Import an agent's A2A Agent Card, MCP server or ERC-8004 registration file from a URL (extension)",
          description: [
            "Extension of ours. Records the import QUEUED (202) and starts it on the durable engine, which",
            "fetches `url` through the guarded outbound client and moves it to RUNNING, then SUCCEEDED (with `result`, the",
            "counts of what it stored) or FAILED with `reasons` (`{code, detail, pointer}`: `target-refused`, `http-<status>`,",
            "`not-json`, `schema` with the rule broken and its JSON pointer into the document, `timeout`,",
            "`response-too-large`, `network-error`, `not-yet-supported`). Poll it with Agents_GetAgentImport.",
            "",
            "- `A2A_AGENT_CARD`: an A2A Agent Card (`/.well-known/agent-card.json`; A2A 1.0 `supportedInterfaces` or 0.3",
            "  `url`/`preferredTransport`/`additionalInterfaces`). The card is stored as published (its JWS `signatures`",
            "  intact); its `skills`, `interfaces` and `provider` replace those on the agent's profile (Agents_GetAgent).",
            "  Its JWS `signatures` are verified over the card's RFC 8785 form without them, each with the key of its",
            "  protected header's `jku` (a JWK Set fetched through the guarded outbound client) or embedded `jwk`: the",
            "  result and the profile state `signatureState` (VERIFIED when one verifies, INVALID when none does,",
            "  UNSIGNED without signatures) and the signer's key id `signatureKid` (docs/findings.md).",
            "- `ERC8004_REGISTRATION`: an ERC-8004 registration file (`type` registration-v1, `endpoints[]`,",
            "  `registrations[]` with `agentRegistry` as CAIP-10 `eip155:<chainId>:<address>`). Its `endpoints` replace the",
            "  profile's, and each registration becomes an `identityClaims` entry with `proofState: UNPROVEN` (it identifies",
            "  the agent only once proven).",
            "- `MCP_SERVER`: connecting the agent to the MCP server is not available yet: the import FAILS with",
            "  `not-yet-supported`.",
            "",
            "Rules: `url` is an absolute http(s) URL (at most 2048 characters) the outbound rules accept now: no credentials,",
            "and no loopback, private, link-local (cloud metadata), unique-local or CGNAT host unless the operator names it",
            "in `OUTBOUND_ALLOWED_HOSTS` (else 400 `outbound-target-refused` naming `/url`); the rules are applied again to",
            "every address and redirect at fetch time (a refusal then FAILS the import with `target-refused`). The caller",
            "needs the OWNER, ADMIN or EDITOR role in the workspace operating the agent (other roles: 403); an agent not",
            "operated by one of the caller's workspaces is not found (404)."
          ].join("\n"),
          errors: [OutboundTargetRefused, RoleRequired, AgentNotFound, InvalidState]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAgentImport", "/api/v1/agents/:entityPublicId/imports/:importId")
      .setPath(Schema.Struct({ entityPublicId: Uuid, importId: Uuid }))
      .addSuccess(Data(AgentImport))
      .pipe(
        operation({
          id: "Agents_GetAgentImport",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "Read an agent import (extension): its state, reasons and result",
          description: "Extension of ours: an import of Agents_ImportAgentSource, QUEUED, RUNNING, SUCCEEDED " +
            "(`result`: what it stored) or FAILED (`reasons`, each `{code, detail, pointer}`). Every ACTIVE member of the " +
            "workspace operating the agent may read it; an agent not operated by one of the caller's workspaces, or an " +
            "import of another agent, is not found (404).",
          errors: [AgentNotFound, AgentImportNotFound]
        })
      )
  )
  .annotate(OpenApi.Title, "Agents")
  .annotate(OpenApi.Description, "Agents: imports of A2A Agent Cards, MCP servers and ERC-8004 registration files")
{}
