/**
 * Mesh publishers contract (spec §4.3 Social_CreateMeshPublisher). The spec puts the
 * operation under the Social tag; the group has its own identifier ("Mesh") so that
 * other Social operations live in their own group, and `OpenApi.Title` names its
 * OpenAPI tag "Social".
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { CreateMeshPublisherRequest, MeshPublisher } from "../../schema/mesh.js"
import { operation } from "./operation.js"

export class MeshApi extends HttpApiGroup.make("Mesh")
  .add(
    HttpApiEndpoint.post("createMeshPublisher", "/api/v1/mesh/publishers")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateMeshPublisherRequest)
      .addSuccess(Data(MeshPublisher), { status: 201 })
      .pipe(
        operation({
          id: "Social_CreateMeshPublisher",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 429, 500, 503],
          summary: "Register a mesh publisher (PENDING) with its Ed25519 public key"
        })
      )
  )
  .annotate(OpenApi.Title, "Social")
  .annotate(OpenApi.Description, "Social: mesh publishers and product analytics")
{}
