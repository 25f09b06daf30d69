/**
 * The problem causes of Mesh publishers (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 409 `public-key-registered`: the public key is already registered to a publisher. */
export class PublicKeyRegistered extends Problem<PublicKeyRegistered>()("PublicKeyRegistered", {
  status: 409, type: "public-key-registered", meaning: "the public key is already registered to a publisher"
}) {}
/** 409 `publisher-quota-exceeded`: the workspace holds as many mesh publishers as its quota allows. */
export class PublisherQuotaExceeded extends Problem<PublisherQuotaExceeded>()("PublisherQuotaExceeded", {
  status: 409, type: "publisher-quota-exceeded", meaning: "the workspace holds as many mesh publishers as its quota allows"
}) {}
