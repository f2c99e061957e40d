/** An outbox row, as the envelope needs it. */
export interface EnvelopeSource {
  readonly id: string;
  readonly event: string;
  readonly createdAt: Date;
  readonly campaignId: string | null;
  readonly data: Record<string, unknown>;
}

/**
 * The exact bytes posted for an event: `{id, event, created_at, campaign_id, data}`. Built from the
 * stored row every time, and JSONB gives its members back in one fixed order, so every attempt of
 * a delivery (and every destination of an event) carries the same body and the same signature.
 */
export function envelopeBody(source: EnvelopeSource): string {
  return JSON.stringify({
    id: source.id,
    event: source.event,
    created_at: source.createdAt.toISOString(),
    campaign_id: source.campaignId,
    data: source.data,
  });
}
