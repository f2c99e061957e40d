/**
 * A DNS server on 127.0.0.1 (dns2, UDP, a port of its own) for address verification's tests, so no
 * test asks this machine's resolver or the internet. Each name gets the answer a test gives it,
 * or the server's default: MX records, A records, NODATA (the name exists, without records of that
 * type), NXDOMAIN, SERVFAIL, or no answer at all (a timeout). Every question is counted, so a test
 * can see what the verification's cache saved.
 */
import dns2 from 'dns2';

const { Packet } = dns2;

/** A record as dns2 encodes it (its types ask for a toBuffer that the encoder does not need). */
const record = (r: Omit<dns2.Packet.Resource, 'toBuffer'>): dns2.Packet.Resource => r as dns2.Packet.Resource;

/** What the server answers for a name (a question of another type than the records given gets NODATA). */
export type DnsBehaviour =
  | { readonly mx?: readonly string[]; readonly a?: readonly string[]; readonly aaaa?: readonly string[] }
  /** A single MX of "." (RFC 7505): the domain takes no mail. */
  | 'null-mx'
  | 'nodata'
  | 'nxdomain'
  | 'servfail'
  /** Never answers: the client's timeout decides. */
  | 'timeout';

export interface LocalDns {
  /** `127.0.0.1:<port>`, for EMAIL_DNS_SERVERS. */
  readonly server: string;
  /** Sets what a name (lower case, without the final dot) answers. */
  set(name: string, behaviour: DnsBehaviour): void;
  /** Questions received for a name, every type together. */
  queriesFor(name: string): number;
  /** Questions received in all. */
  readonly totalQueries: number;
  close(): Promise<void>;
}

/** MX `mx.<name>` for every name: what the suite's shared server answers, so every test lead's domain takes mail. */
export const MX_FOR_EVERY_NAME = (name: string): DnsBehaviour => ({ mx: [`mx.${name}`] });

export async function startLocalDns(fallback: (name: string) => DnsBehaviour = () => 'nxdomain'): Promise<LocalDns> {
  const zone = new Map<string, DnsBehaviour>();
  const counts = new Map<string, number>();
  let total = 0;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const question = request.questions[0];
      const response = Packet.createResponseFromRequest(request);
      if (question === undefined) return void send(response);
      const name = question.name.toLowerCase().replace(/\.$/, '');
      total++;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      const behaviour = zone.get(name) ?? fallback(name);
      if (behaviour === 'timeout') return;
      if (behaviour === 'nxdomain') response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (behaviour === 'servfail') response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (behaviour === 'null-mx') {
        if (question.type === Packet.TYPE.MX) response.answers.push(record({ name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: '', priority: 0 }));
      } else if (behaviour !== 'nodata') {
        const records =
          question.type === Packet.TYPE.MX ? behaviour.mx : question.type === Packet.TYPE.A ? behaviour.a : question.type === Packet.TYPE.AAAA ? behaviour.aaaa : undefined;
        (records ?? []).forEach((value, i) =>
          response.answers.push(
            question.type === Packet.TYPE.MX
              ? record({ name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: value, priority: 10 * (i + 1) })
              : record({ name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 60, address: value }),
          ),
        );
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (port === undefined) throw new Error('the local DNS server did not listen');
  return {
    server: `127.0.0.1:${port}`,
    set: (name, behaviour) => void zone.set(name.toLowerCase(), behaviour),
    queriesFor: (name) => counts.get(name.toLowerCase()) ?? 0,
    get totalQueries() {
      return total;
    },
    close: () => server.close(),
  };
}
