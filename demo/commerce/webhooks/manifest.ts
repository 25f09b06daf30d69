/**
 * The commerce/webhooks area's entries of the demo manifest (`demo/manifest.ts`). The demo server
 * configures no payment processor (`PAYMENT_PROCESSOR_WEBHOOKS`), and a signature is only valid for
 * 300 s, so the request answers the signature problem (checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"

/** The commerce/webhooks area's demo requests, by operationId. */
export const CommerceWebhooksManifest = {
  Commerce_ReceiveProcessorWebhook: {
    as: "anonymous",
    path: { provider: "stripe" },
    query: {},
    body: {
      id: "evt_3QdemoPaymentSucceeded",
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: "pi_3QdemoIntent", object: "payment_intent", metadata: { paymentId: "0190ffff-0000-7000-8000-000000000000" } } }
    },
    headers: { "stripe-signature": "t=1780272000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd" },
    problem: { status: 401, type: "webhook-signature-invalid" },
    note: "Example (demo): the demo server configures no payment processor and a signature is valid for 300 s, so " +
      "this request answers 401 `webhook-signature-invalid`; a processor named in `PAYMENT_PROCESSOR_WEBHOOKS` signs " +
      "each delivery with its secret (docs/processor-webhooks.md)."
  }
} satisfies Record<string, ManifestOperation>
