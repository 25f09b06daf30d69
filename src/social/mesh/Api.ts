/**
 * Mesh publishers contract (spec §4.3 Social_CreateMeshPublisher). The spec puts the
 * operation under the Social tag; the group has its own identifier ("Mesh") so that
 * other Social operations live in their own group, and `OpenApi.Title` names its
 * OpenAPI tag "Social".
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { CreateMeshPublisherRequest, MeshPublisher } from "./Schemas.js"
import { operation } from "../../api/operation.js"
import { AgentNotFound, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { PublicKeyRegistered, PublisherQuotaExceeded } from "./Errors.js"

export class MeshApi extends HttpApiGroup.make("Mesh")
  .add(
    HttpApiEndpoint.post("createMeshPublisher", "/api/v1/mesh/publishers")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateMeshPublisherRequest)
      .addSuccess(Data(MeshPublisher), { status: 201 })
      .pipe(
        operation({
          id: "Social_CreateMeshPublisher",
          permission: "mesh.publish",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 429, 500, 503],
          summary: "Register a mesh publisher (PENDING) with its Ed25519 public key",
          description: "Registers a publisher of signed signals for a workspace (optionally on behalf of one of its " +
            "agents) and answers 201 with it in state PENDING, with a new `publicKeyId` and `publicKeyFingerprint` = " +
            "base64url (no padding) of SHA-256 over the 32 raw key bytes.\n\n" +
            "Rules: `algorithm` is `Ed25519`; `publicKeyBase64` is padded base64 of a raw 32-byte Ed25519 public key " +
            "that decodes to a curve point outside the small-order subgroup (400 otherwise); each of 1-100 " +
            "`allowedSignalTypes` is at most 200 characters, a lowercase alphanumeric segment followed by one or more " +
            "`.`-separated segments of lowercase letters, digits and hyphens (`research.report.published`); " +
            "`ratePolicy.perMinute` and `burst` are 1-10000. The workspace must be one of the caller's (404 " +
            "`workspace-not-found`) and the caller needs the OWNER, ADMIN, EDITOR or OPERATOR role (403 `role-required`); " +
            "`entityPublicId` must be an agent with a service in that workspace (404 `agent-not-found`). A key is " +
            "registered once across all publishers and states (409 `public-key-registered`). A workspace holds at most " +
            "its quota of publishers that are not REVOKED: 10 unless the workspace has its own (409 " +
            "`publisher-quota-exceeded`). A spent request budget is 429 `rate-limited` with `Retry-After`.",
          errors: [WorkspaceNotFound, AgentNotFound, RoleRequired, PublicKeyRegistered, PublisherQuotaExceeded]
        })
      )
  )
  .annotate(OpenApi.Title, "Social")
  .annotate(OpenApi.Description, "Social: mesh publishers")
{}
