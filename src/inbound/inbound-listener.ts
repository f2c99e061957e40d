import type { Sequelize } from 'sequelize';
import type { LeadFactSink } from '../campaigns/control/lead-fact-signals';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { replyQualifier } from '../replies/qualify-reply';
import { inboundSecret } from './inbound-secret';
import { startInboundSmtp, type RunningInboundSmtp } from './smtp-listener';

/**
 * The API role's SMTP listener for replies, on HOST:INBOUND_SMTP_PORT, wired to the shared database
 * (and to the campaign workflows through `leadFacts`, when given).
 */
export function startInboundListener(config: Config, sequelize: Sequelize, log: Logger, leadFacts?: LeadFactSink): Promise<RunningInboundSmtp> {
  return startInboundSmtp({
    host: config.host,
    port: config.inboundSmtpPort,
    sequelize,
    log,
    ...(leadFacts === undefined ? {} : { leadFacts }),
    qualify: replyQualifier({ sequelize, config, log }),
    secret: () => inboundSecret(sequelize, config),
  });
}
