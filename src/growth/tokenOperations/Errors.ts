/**
 * The problem causes of token operations (the shared ones are in `schema/errors.ts`). Each is one
 * `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `token-operation-not-found`: no token operation has this id. */
export class TokenOperationNotFound extends Problem<TokenOperationNotFound>()("TokenOperationNotFound", {
  status: 404, type: "token-operation-not-found", meaning: "no token operation has this id"
}) {}
/**
 * 403 `second-approver-required`: an APPROVAL_REQUIRED operation is approved by an administrator
 * other than the one who created it.
 */
export class SecondApproverRequired extends Problem<SecondApproverRequired>()("SecondApproverRequired", {
  status: 403, type: "second-approver-required",
  meaning: "an operation above the approval threshold needs an administrator other than its creator to approve it"
}) {}
/**
 * 422 `asset-not-executable`: the asset (an asset id or a CAIP-19 id) is not the network's
 * configured treasury token, the only asset the platform moves.
 */
export class AssetNotExecutable extends Problem<AssetNotExecutable>()("AssetNotExecutable", {
  status: 422, type: "asset-not-executable",
  meaning: "the asset is not the network's configured treasury token, the only one the platform moves"
}) {}
