import type { Static } from '@sinclair/typebox';
import type { SpamCheck } from '../../../campaigns/sequences/preview';
import type { PreviewAnswer } from '../../../campaigns/sequences/preview-requests';
import type { PreviewResponse } from './schemas';

function spamView(s: SpamCheck) {
  return s.status === 'checked'
    ? { status: s.status, score: s.report.score, required: s.report.required, rules: s.report.rules.map((r) => ({ name: r.name, score: r.score, description: r.description })), reason: null }
    : { status: s.status, score: null, required: null, rules: [], reason: s.reason };
}

export function previewB(p: PreviewAnswer): Static<typeof PreviewResponse> {
  return {
    lead: p.lead,
    steps: p.steps.map((s) => ({
      step: s.step,
      delayDays: s.delayDays,
      variant: s.variant,
      mode: s.mode,
      writer: s.writer,
      skipped: s.skipped,
      subject: s.subject,
      text: s.text,
      html: s.html,
      inReplyToStep: s.inReplyToStep,
      spam: s.spam === null ? null : spamView(s.spam),
    })),
  };
}
