/**
 * The {@link ToolRunner} of the directory's protocol endpoints (MCP at `/mcp`, A2A at `/a2a`):
 * runs a tool's effect on the server's services, in the HTTP request's context (its request
 * id and instance, for logs and problem documents), and answers its success or the problem
 * document of its failure: a problem as it is; a dependency failure as the REST 503; any other
 * failure as 500 `internal-error`, logged with the request id.
 */
import { Cause, Effect, Either, Option, Runtime } from "effect"
import { CurrentRequest } from "../../layers/RequestContext.js"
import { InternalError } from "../../schema/errors.js"
import { isProblem, toDocument, withRequest } from "../../schema/problem.js"
import { dependencyProblem, isDependencyFailure } from "../http/DependencyFailure.js"
import type { ToolRunner } from "./DirectoryServer.js"
import type { ToolServices } from "./Tools.js"

/** A {@link ToolRunner} on `runtime`'s services. */
export const makeToolRunner = (runtime: Runtime.Runtime<ToolServices>): ToolRunner => {
  const runPromise = Runtime.runPromise(runtime)
  return (effect, context) => {
    const info = { requestId: context.requestId, instance: context.instance, clientAddress: context.clientAddress }
    return runPromise(
      effect.pipe(
        Effect.map(Either.right),
        Effect.catchAllCause((cause) => {
          const error = Option.getOrElse(Cause.failureOption(cause), () => Cause.squash(cause))
          if (isProblem(error)) return Effect.succeed(Either.left(toDocument(withRequest(error, info))))
          const problem = isDependencyFailure(error)
            ? dependencyProblem(Option.none())
            : new InternalError({ detail: "An unexpected error occurred; quote the requestId when reporting it." })
          return Effect.logError("Protocol call failed", cause).pipe(
            Effect.annotateLogs({ requestId: info.requestId }),
            Effect.as(Either.left(toDocument(withRequest(problem, info))))
          )
        }),
        Effect.locally(CurrentRequest, info)
      )
    )
  }
}
