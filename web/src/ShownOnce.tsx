/**
 * A secret the API shows once (a new API key, a webhook's signing secret): announced as a status,
 * in a focusable block to copy from, with the sentence that it is not shown again.
 */
export const ShownOnce = ({ label, value }: { readonly label: string; readonly value: string }) => (
  <div class="shown-once" role="status">
    <p>{label} — copy it now, it is not shown again:</p>
    <pre tabIndex={0}><code>{value}</code></pre>
  </div>
)
