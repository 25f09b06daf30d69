/**
 * The problem causes shared by several areas, and those of the mechanisms every
 * operation goes through (decoding, body admission, auth, CSRF, idempotency,
 * cursors, rate limit, failures). One `Schema.TaggedError` per cause (see
 * {@link Problem}); the causes of one area live in `src/<area>/Errors.ts`.
 *
 * Each line below is a cause's status, `type` slug (`https://agent-directory.dev/problems/<slug>`)
 * and meaning; the OpenAPI description lists them per operation from its declared errors.
 */
import { Problem } from "./problem.js"

// ---- 400: the request is malformed or fails validation (`errors` lists each input)

/** 400 `invalid-request`: an input breaks its schema; `errors` names each field and rule. */
export class InvalidRequest extends Problem<InvalidRequest>()("InvalidRequest", {
  status: 400, type: "invalid-request", meaning: "an input breaks its schema; `errors` names each field and rule"
}) {}
/** 400 `malformed-body`: the body is not JSON. */
export class MalformedBody extends Problem<MalformedBody>()("MalformedBody", {
  status: 400, type: "malformed-body", meaning: "the body is not JSON"
}) {}
/** 400 `unsupported-content-type`: the body is not `application/json`. */
export class UnsupportedContentType extends Problem<UnsupportedContentType>()("UnsupportedContentType", {
  status: 400, type: "unsupported-content-type", meaning: "the body is not `application/json`"
}) {}
/** 400 `body-too-large`: the body is larger than `MAX_BODY_BYTES`. */
export class BodyTooLarge extends Problem<BodyTooLarge>()("BodyTooLarge", {
  status: 400, type: "body-too-large", meaning: "the body is larger than the server's limit (`MAX_BODY_BYTES`)"
}) {}
/** 400 `nesting-too-deep`: the JSON body is nested deeper than the server's limit. */
export class NestingTooDeep extends Problem<NestingTooDeep>()("NestingTooDeep", {
  status: 400, type: "nesting-too-deep", meaning: "the JSON body is nested deeper than the server's limit"
}) {}
/** 400 `idempotency-key-required`: the `Idempotency-Key` header is missing or not a uuid (named apart from the header Schema `IdempotencyKeyRequired`). */
export class MissingIdempotencyKey extends Problem<MissingIdempotencyKey>()("MissingIdempotencyKey", {
  status: 400, type: "idempotency-key-required", meaning: "the `Idempotency-Key` header (a uuid) is missing or not a uuid"
}) {}
/** 400 `invalid-cursor`: the cursor was altered, or belongs to another query or caller. */
export class InvalidCursor extends Problem<InvalidCursor>()("InvalidCursor", {
  status: 400, type: "invalid-cursor", meaning: "the cursor was altered, or belongs to another query or caller"
}) {}
/** 400 `confirmation-required`: applying a two-step admin command needs the `confirmation` text. */
export class ConfirmationRequired extends Problem<ConfirmationRequired>()("ConfirmationRequired", {
  status: 400, type: "confirmation-required", meaning: "applying needs the `confirmation` text"
}) {}
/** 400 `confirmation-mismatch`: `confirmation` is not the expected text. */
export class ConfirmationMismatch extends Problem<ConfirmationMismatch>()("ConfirmationMismatch", {
  status: 400, type: "confirmation-mismatch", meaning: "`confirmation` is not the expected text"
}) {}

/** 400 `outbound-target-refused`: a URL given for the server to fetch breaks the outbound rules (layers/Outbound.ts); `errors` names the field and the rule. */
export class OutboundTargetRefused extends Problem<OutboundTargetRefused>()("OutboundTargetRefused", {
  status: 400,
  type: "outbound-target-refused",
  meaning:
    "a URL the server is asked to fetch is not http(s), carries credentials, or its host is a loopback, private, link-local, metadata or other non-public address not named in `OUTBOUND_ALLOWED_HOSTS`"
}) {}

// ---- 402: a payment is needed

/**
 * 402 `payment-required`: the resource needs a payment; on an x402 resource the `PAYMENT-REQUIRED`
 * header holds the x402 v2 payment requirements (base64 of their JSON).
 */
export class PaymentRequired extends Problem<PaymentRequired>()("PaymentRequired", {
  status: 402, type: "payment-required",
  meaning: "the resource needs a payment: on an x402 resource the `PAYMENT-REQUIRED` header holds the x402 v2 payment requirements"
}) {}

// ---- 401: no valid credential

/** 401 `unauthenticated`: no valid session or API key; one identical body whatever the cause (spec §5.3). */
export class Unauthenticated extends Problem<Unauthenticated>()("Unauthenticated", {
  status: 401, type: "unauthenticated", meaning: "no valid session or API key (one identical body whatever the cause)"
}) {}

// ---- 403: authenticated but not allowed

/** 403 `forbidden`: the caller may not do this (the status's generic cause). */
export class Forbidden extends Problem<Forbidden>()("Forbidden", {
  status: 403, type: "forbidden", meaning: "the caller may not do this"
}) {}
/** 403 `session-required`: an API key was sent to a session-only operation. */
export class SessionRequired extends Problem<SessionRequired>()("SessionRequired", {
  status: 403, type: "session-required", meaning: "an API key was sent to a session-only operation"
}) {}
/** 403 `cross-site-request`: a cross-site browser request (`Sec-Fetch-Site: cross-site`). */
export class CrossSiteRequest extends Problem<CrossSiteRequest>()("CrossSiteRequest", {
  status: 403, type: "cross-site-request", meaning: "a cross-site browser request (`Sec-Fetch-Site: cross-site`)"
}) {}
/** 403 `origin-not-allowed`: the `Origin` is not allowed for session commands. */
export class OriginNotAllowed extends Problem<OriginNotAllowed>()("OriginNotAllowed", {
  status: 403, type: "origin-not-allowed", meaning: "the `Origin` is not allowed for session commands"
}) {}
/** 403 `csrf-token-invalid`: `X-CSRF-Token` is missing or is not the session's. */
export class CsrfTokenInvalid extends Problem<CsrfTokenInvalid>()("CsrfTokenInvalid", {
  status: 403, type: "csrf-token-invalid", meaning: "`X-CSRF-Token` is missing or is not the session's"
}) {}
/** 403 `admin-required`: the account is not an administrator. */
export class AdminRequired extends Problem<AdminRequired>()("AdminRequired", {
  status: 403, type: "admin-required", meaning: "the account is not an administrator"
}) {}
/**
 * 403 `reauthentication-required`: the session's sign-in is not recent enough (sensitive actions, spec §5.2
 * "recent authentication or MFA"); a new sign-in or a fresh second factor (Accounts_VerifyMfa) makes it recent.
 */
export class ReauthenticationRequired extends Problem<ReauthenticationRequired>()("ReauthenticationRequired", {
  status: 403, type: "reauthentication-required",
  meaning: "the session's sign-in is not recent enough; sign in again or verify a second factor (Accounts_VerifyMfa)"
}) {}
/** 403 `mfa-required`: administrator operations need an account with a confirmed second factor (TOTP). */
export class MfaRequired extends Problem<MfaRequired>()("MfaRequired", {
  status: 403, type: "mfa-required", meaning: "the administrator account has no confirmed second factor (TOTP); enroll one first"
}) {}
/** 403 `email-not-verified`: the password is right but the account's email is not verified yet (follow the mailed link). */
export class EmailNotVerified extends Problem<EmailNotVerified>()("EmailNotVerified", {
  status: 403, type: "email-not-verified", meaning: "the account's email is not verified yet; follow the link mailed at sign-up"
}) {}
/** 403 `insufficient-scope`: the API key lacks a scope the operation requires. */
export class InsufficientScope extends Problem<InsufficientScope>()("InsufficientScope", {
  status: 403, type: "insufficient-scope", meaning: "the API key lacks a scope the operation requires"
}) {}
/** 403 `role-required`: the caller's workspace role does not allow this. */
export class RoleRequired extends Problem<RoleRequired>()("RoleRequired", {
  status: 403, type: "role-required", meaning: "the caller's workspace role does not allow this"
}) {}
/** 403 `workspace-role-required`: the operation needs the OWNER or ADMIN role in the workspace. */
export class WorkspaceRoleRequired extends Problem<WorkspaceRoleRequired>()("WorkspaceRoleRequired", {
  status: 403, type: "workspace-role-required", meaning: "the operation needs the OWNER or ADMIN role in the workspace"
}) {}

// ---- 404: does not exist, or is not visible to the caller

/** 404 `not-found`: the resource does not exist or is not visible to the caller (the status's generic cause). */
export class NotFound extends Problem<NotFound>()("NotFound", {
  status: 404, type: "not-found", meaning: "the resource does not exist or is not visible to the caller"
}) {}
/** 404 `no-such-operation`: no operation has this method and path (raised by the router, on no operation). */
export class NoSuchOperation extends Problem<NoSuchOperation>()("NoSuchOperation", {
  status: 404, type: "no-such-operation", meaning: "no operation has this method and path"
}) {}
/** 404 `workspace-not-found`: no such workspace of the caller's. */
export class WorkspaceNotFound extends Problem<WorkspaceNotFound>()("WorkspaceNotFound", {
  status: 404, type: "workspace-not-found", meaning: "no such workspace of the caller's"
}) {}
/** 404 `agent-not-found`: no agent has this entity UUID (or none the caller's workspaces operate). */
export class AgentNotFound extends Problem<AgentNotFound>()("AgentNotFound", {
  status: 404, type: "agent-not-found", meaning: "no agent has this entity UUID"
}) {}
/**
 * 404 `agent-card-not-available`: the agent is listed but publishes no A2A interface (it
 * published no card and imports recorded no A2A `supportedInterfaces`), so it has no A2A
 * Agent Card (A2A 1.0 §5.7: a card lists at least one interface); the detail links its
 * profile and the endpoints it declared (MCP server, ...).
 */
export class AgentCardNotAvailable extends Problem<AgentCardNotAvailable>()("AgentCardNotAvailable", {
  status: 404, type: "agent-card-not-available", meaning: "the agent publishes no A2A interface, so it has no A2A Agent Card"
}) {}

// ---- 409: conflicts with the resource's state, or with the idempotency record

/** 409 `conflict`: the request conflicts with the resource's state (the status's generic cause). */
export class Conflict extends Problem<Conflict>()("Conflict", {
  status: 409, type: "conflict", meaning: "the request conflicts with the resource's state"
}) {}
/** 409 `version-conflict`: the version sent is not the current one (optimistic concurrency). */
export class VersionConflict extends Problem<VersionConflict>()("VersionConflict", {
  status: 409, type: "version-conflict", meaning: "the version sent is not the current one; read it again"
}) {}
/** 409 `invalid-state`: the resource's state does not allow this. */
export class InvalidState extends Problem<InvalidState>()("InvalidState", {
  status: 409, type: "invalid-state", meaning: "the resource's state does not allow this"
}) {}
/** 409 `idempotency-key-reuse`: the `Idempotency-Key` was used for a different request. */
export class IdempotencyKeyReuse extends Problem<IdempotencyKeyReuse>()("IdempotencyKeyReuse", {
  status: 409, type: "idempotency-key-reuse", meaning: "the `Idempotency-Key` was used for a different request"
}) {}
/** 409 `idempotency-request-in-flight`: a request with this key is still running (`Retry-After`). */
export class IdempotencyRequestInFlight extends Problem<IdempotencyRequestInFlight>()("IdempotencyRequestInFlight", {
  status: 409,
  type: "idempotency-request-in-flight",
  meaning: "a request with this `Idempotency-Key` is still running (`Retry-After`)"
}) {}

// ---- 410, 422, 423

/** 410 `challenge-expired`: the challenge expired (wallet and trust operations). */
export class ChallengeExpired extends Problem<ChallengeExpired>()("ChallengeExpired", {
  status: 410, type: "challenge-expired", meaning: "the challenge expired"
}) {}
/** 422 `unprocessable`: configuration missing, or proof invalid (the status's generic cause). */
export class Unprocessable extends Problem<Unprocessable>()("Unprocessable", {
  status: 422, type: "unprocessable", meaning: "configuration missing, or proof invalid"
}) {}
/** 422 `configuration-missing`: what the operation needs is not configured (or not yet observed). */
export class ConfigurationMissing extends Problem<ConfigurationMissing>()("ConfigurationMissing", {
  status: 422, type: "configuration-missing", meaning: "what the operation needs is not configured (or not yet observed)"
}) {}
/** 422 `proof-invalid`: the confirmation is not the expected phrase. */
export class ProofInvalid extends Problem<ProofInvalid>()("ProofInvalid", {
  status: 422, type: "proof-invalid", meaning: "the confirmation is not the expected phrase"
}) {}
/** 422 `policy-violation`: a wallet's policy (spec §2.8) refuses the transaction; `detail` names the rule. */
export class PolicyViolation extends Problem<PolicyViolation>()("PolicyViolation", {
  status: 422, type: "policy-violation", meaning: "the wallet's policy refuses the transaction (the rule is named)"
}) {}
/** 422 `signature-invalid`: the signature is malformed or was not made by the locator's key over the challenge message. */
export class SignatureInvalid extends Problem<SignatureInvalid>()("SignatureInvalid", {
  status: 422, type: "signature-invalid", meaning: "the signature is malformed or not by the locator's key over the message"
}) {}
/** 422 `signer-not-token-owner`: the signer of the message is not the token's `ownerOf` on its chain (or the token has none). */
export class SignerNotTokenOwner extends Problem<SignerNotTokenOwner>()("SignerNotTokenOwner", {
  status: 422, type: "signer-not-token-owner", meaning: "the signer is not the registry token's ownerOf on its chain"
}) {}
/** 423 `policy-locked`: a policy lock prevents the operation (workspace read, session revoke). */
export class PolicyLocked extends Problem<PolicyLocked>()("PolicyLocked", {
  status: 423, type: "policy-locked", meaning: "a policy lock prevents the operation"
}) {}

// ---- 429, 500, 503

/** 503 `chain-rpc-unavailable`: the chain's JSON-RPC endpoint did not answer in time (`Retry-After`). */
export class ChainRpcUnavailable extends Problem<ChainRpcUnavailable>()("ChainRpcUnavailable", {
  status: 503, type: "chain-rpc-unavailable", meaning: "the chain's JSON-RPC endpoint did not answer in time"
}) {}
/** 429 `rate-limited`: the request budget is exhausted (`Retry-After`). */
export class RateLimited extends Problem<RateLimited>()("RateLimited", {
  status: 429, type: "rate-limited", meaning: "the request budget is exhausted (`Retry-After`)"
}) {}
/** 429 `mail-throttled`: too many mails asked for this recipient or from this client; retry after `Retry-After` seconds. */
export class MailThrottled extends Problem<MailThrottled>()("MailThrottled", {
  status: 429, type: "mail-throttled", meaning: "too many mails asked for this recipient or from this client (`Retry-After`)"
}) {}
/** 500 `internal-error`: an unexpected failure; nothing internal is revealed. */
export class InternalError extends Problem<InternalError>()("InternalError", {
  status: 500, type: "internal-error", meaning: "an unexpected failure; quote the `requestId`"
}) {}
/** 503 `dependency-unavailable`: a dependency (the database) is unavailable (`Retry-After`). */
export class DependencyUnavailable extends Problem<DependencyUnavailable>()("DependencyUnavailable", {
  status: 503, type: "dependency-unavailable", meaning: "a dependency (the database) is unavailable (`Retry-After`)"
}) {}
/**
 * 500 `dependency-unavailable`: the same cause as {@link DependencyUnavailable}, on an
 * operation whose status list has no 503 (spec §4: the status list is authoritative).
 */
export class DependencyUnavailable500 extends Problem<DependencyUnavailable500>()("DependencyUnavailable500", {
  status: 500, type: "dependency-unavailable", meaning: "a dependency (the database) is unavailable (`Retry-After`)"
}) {}

/** The cause of each status when an operation lists the status but declares no cause for it. */
export const GenericProblems = {
  400: InvalidRequest,
  401: Unauthenticated,
  402: PaymentRequired,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  410: ChallengeExpired,
  422: Unprocessable,
  423: PolicyLocked,
  429: RateLimited,
  500: InternalError,
  503: DependencyUnavailable
} as const
