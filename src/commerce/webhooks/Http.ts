/**
 * HTTP handler of payment processor webhooks. Implemented with `handleRaw`: the body is not
 * decoded (nor parsed and re-serialised) before the signature is checked on its exact text, the
 * text the request middleware read (src/http/RequestBody.ts).
 */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { ProcessorWebhooks } from "./ProcessorWebhooks.js"

export const CommerceWebhooksHttpLive = group(Api, "CommerceWebhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* ProcessorWebhooks
    const envelope = yield* Envelope
    return handlers.handleRaw("receiveProcessorWebhook", ({ path, request }) =>
      Effect.flatMap(Effect.orDie(request.text), (body) =>
        webhooks.receive({ provider: path.provider, headers: request.headers, body }).pipe(Effect.flatMap(envelope.data))))
  }))
