/**
 * The root HttpApi contract of the Agent Directory API, version 1 (spec §1, §9).
 * Everything else (server routes, OpenAPI description, typed client) derives from it.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AccountsApi } from "./AccountsApi.js"
import { AdminApi } from "./AdminApi.js"
import { AgentsApi } from "./AgentsApi.js"
import { BountyDisputesApi } from "./BountyDisputesApi.js"
import { CommerceApi } from "./CommerceApi.js"
import { PartnerJobSourcesApi } from "./PartnerJobSourcesApi.js"
import { ProtocolsApi } from "./ProtocolsApi.js"
import { ServicesApi } from "./ServicesApi.js"
import { TokenOperationsApi } from "./TokenOperationsApi.js"
import { WorkspacesApi } from "./WorkspacesApi.js"

/**
 * `HttpApi.make` declares the framework's own decode error (a non-problem JSON body)
 * on every operation. We render every decode failure as our 400 problem instead (see
 * `layers/Problems.ts`), so each operation lists exactly its spec statuses.
 */
const withoutFrameworkErrors = <Id extends string, Groups extends import("@effect/platform").HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, Groups, never, R> =>
  Object.assign(Object.create(Object.getPrototypeOf(api)), api, { errorSchema: Schema.Never })

/**
 * Several groups may publish under one spec tag (`OpenApi.Title`, e.g. the Jobs tag of
 * bounty disputes and partner job sources); the document lists each tag once.
 */
const uniqueTags = (spec: Record<string, unknown>): Record<string, unknown> => {
  const tags = (spec["tags"] ?? []) as ReadonlyArray<{ readonly name: string }>
  return { ...spec, tags: tags.filter((tag, i) => tags.findIndex((t) => t.name === tag.name) === i) }
}

/** The Agent Directory API contract. */
export class Api extends withoutFrameworkErrors(HttpApi.make("AgentDirectoryApi"))
  .add(AccountsApi)
  .add(AdminApi)
  .add(AgentsApi)
  .add(BountyDisputesApi)
  .add(CommerceApi)
  .add(PartnerJobSourcesApi)
  .add(ProtocolsApi)
  .add(ServicesApi)
  .add(TokenOperationsApi)
  .add(WorkspacesApi)
  .annotateContext(
    OpenApi.annotations({
      title: "Agent Directory API",
      version: "1.0.0",
      description:
        "Agent Directory and Operations API, version 1. Errors are application/problem+json (RFC 9457); " +
        "monetary and chain values are decimal strings of minor units.",
      // relative: the server that serves the description (spec §1: the server URL is the current origin),
      // so the docs' request panel calls whichever host `npm start` is reached on
      servers: [{ url: "/", description: "this server (the origin serving /openapi.json)" }],
      // no open-source license: the package is UNLICENSED (package.json)
      license: { name: "UNLICENSED (proprietary)" },
      override: { openapi: "3.1.1" },
      transform: (spec) => ({
        ...uniqueTags(spec),
        info: { ...spec["info"], contact: { name: "Agent Directory API", url: "https://agent-directory.dev" } }
      })
    })
  )
{}
