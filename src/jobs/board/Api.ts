/**
 * Jobs area contract, the job board (docs/jobs.md): OPEN bounties and partner jobs in one list. Its own group
 * (identifier `JobBoard`) published under the OpenAPI tag `Jobs`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data, Page } from "../../../schema/envelope.js"
import { InvalidCursor, InvalidRequest } from "../../../schema/errors.js"
import { operation } from "../../api/operation.js"
import { JobNotFound } from "./Errors.js"
import { Job, JobPath, ListJobsQuery } from "./Schemas.js"

export class JobBoardApi extends HttpApiGroup.make("JobBoard")
  .add(
    HttpApiEndpoint.get("listJobs", "/api/v1/jobs")
      .setUrlParams(ListJobsQuery)
      .addSuccess(Page(Job, 100))
      .pipe(
        operation({
          id: "Jobs_ListJobs",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 500, 503],
          errors: [InvalidRequest, InvalidCursor],
          summary: "Find work: OPEN bounties and partner jobs in one list, with filters, a text query and signed cursors",
          description: "The job board, `limit` per page (1-100, default 25): bounties that are OPEN (funded and " +
            "claimable, deadline not passed) and the jobs of partner job sources that are ACTIVE or DEGRADED (not " +
            "withdrawn from the partner's feed, `closesAt` not passed), each as one `Job` with its `kind` (BOUNTY, " +
            "PARTNER) and `source` (the bounty's id; or the partner source, the partner's `externalId` and `url`).\n\n" +
            "- **Filters** (repeat a parameter for several values): `kinds`, `skills` and `protocols` (lower-case keys, " +
            "max 20: a job with any of them), `network` (a network key or CAIP-2 id: where the reward is paid), `asset` " +
            "(a symbol such as `USDC`), `minReward` and `maxReward` (units, inclusive; they need `asset`: 400 naming " +
            "the parameter), `deadlineAfter` and `deadlineBefore` (exclusive; a job with no deadline does not match " +
            "them). Different filters must all hold.\n" +
            "- **`q`** (1-200 characters): a full-text search over the title (weight A) and the description (C), " +
            "accents and case ignored, English stemming, every word matching as a prefix (docs/jobs.md). A query of " +
            "punctuation only matches nothing.\n" +
            "- **`sort`**: `relevance` (the default with `q`: text rank, best first; without `q` it orders as " +
            "`newest`), `newest` (the default without `q`: `postedAt` descending), `deadline` (soonest first, none " +
            "last), `reward` (highest units first; needs `asset`); ties by job id, so pages never repeat or skip a job.\n" +
            "- **Pages**: pass `nextCursor` back as `cursor` with the same filters, `q` and `sort` (and the same API " +
            "key, or none); a cursor altered, or used with another query or caller, is refused with 400 " +
            "`invalid-cursor`. `limit` may change."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getJob", "/api/v1/jobs/:jobId")
      .setPath(JobPath)
      .addSuccess(Data(Job))
      .pipe(
        operation({
          id: "Jobs_GetJob",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          errors: [JobNotFound],
          summary: "One job of the board: an OPEN bounty or a listed partner job",
          description: "The job `jobId` in the shape of Jobs_ListJobs: a bounty's id (while it is OPEN) or a partner " +
            "job's board id (while its source is ACTIVE or DEGRADED and the job is listed by the feed and not closed). " +
            "404 `job-not-found` otherwise."
        })
      )
  )
  .annotate(OpenApi.Title, "Jobs")
  .annotate(OpenApi.Description, "Jobs: bounties, disputes and partner job sources")
{}
