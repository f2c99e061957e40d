import { expect } from 'chai';
import { chooseVariant, spinChoices } from '../../src/campaigns/sequences/choose';
import { compileTemplate, renderTemplate, TemplateProblem } from '../../src/campaigns/sequences/compile-template';
import { compileSequence } from '../../src/campaigns/sequences/compiled-sequence';
import { draftStep } from '../../src/campaigns/sequences/draft-step';
import { mergeScope, type MergeLead } from '../../src/campaigns/sequences/merge-variables';
import { spintaxToLiquid } from '../../src/campaigns/sequences/spintax';
import { validateSequence, type StepInput } from '../../src/campaigns/sequences/validate-sequence';
import { InvalidInputError } from '../../src/errors/domain-errors';

const lead: MergeLead = {
  email: 'anna@finlytics.example',
  firstName: 'anna',
  lastName: 'Weber',
  title: 'Head of Engineering',
  company: 'Finlytics',
  companyDomain: 'finlytics.example',
  industry: 'Fintech',
  city: 'Berlin',
  state: null,
  country: 'Germany',
  linkedinUrl: null,
  phone: null,
  customFields: { plan: 'Growth', seats: '' },
};
const sender = { name: 'Grace Hopper', email: 'grace@acme.example', company: 'Acme' };
const scope = mergeScope(lead, sender, 'https://cal.example/grace');
const render = (source: string, spin: Record<string, number> = {}) => renderTemplate(compileTemplate(source), scope, spin);

/** The message of the InvalidInputError validateSequence throws for these steps. */
function refusal(steps: StepInput[]): string {
  try {
    validateSequence(steps, 'camel');
  } catch (err) {
    expect(err).to.be.instanceOf(InvalidInputError);
    return (err as Error).message;
  }
  throw new Error('expected the sequence to be refused');
}
const one = (over: Partial<StepInput>): StepInput[] => [{ delayDays: 0, mode: 'template', subject: 'Hi', body: 'Hello', ...over }];

describe('sequence templates: merge variables, fallbacks, spintax', () => {
  it('spintax becomes one Liquid case per group; Liquid delimiters, raw blocks and plain braces are left alone', () => {
    expect(spintaxToLiquid('{Hi|Hello} {{ first_name }}')).to.deep.equal({ liquid: '{% case spin__.g0 %}{% when 0 %}Hi{% when 1 %}Hello{% endcase %} {{ first_name }}', options: [2] });
    expect(spintaxToLiquid('{a|{b|c}}').options).to.deep.equal([2, 2]);
    expect(spintaxToLiquid('{braces} {not closed').liquid).to.equal('{braces} {not closed');
    expect(spintaxToLiquid('{% raw %}{a|b}{% endraw %} {% if x %}{y|z}{% endif %}').options).to.deep.equal([2]);
  });

  it('fills lead, custom and sender fields; a fallback stands in for a missing value; "anna" is written Anna', () => {
    expect(render('Hi {{ first_name }} at {{ company }} ({{ custom.plan }}), {{ sender.name }} of {{ sender.company }}')).to.deep.equal({
      text: 'Hi Anna at Finlytics (Growth), Grace Hopper of Acme',
    });
    expect(render('{{ state | default: "your region" }} / {{ custom.seats | default: "some" }}')).to.deep.equal({ text: 'your region / some' });
    expect(render('{% if state %}in {{ state }}{% else %}nearby{% endif %}')).to.deep.equal({ text: 'nearby' });
  });

  it('a variable the lead has no value for (and no default) is missing, by its name: the step is passed over, never sent with a blank', () => {
    expect(render('Hi {{ state }}')).to.deep.equal({ missing: 'state' });
    expect(render('{{ custom.seats }} seats')).to.deep.equal({ missing: 'custom.seats' });
    const step = compileSequence(validateSequence([{ delayDays: 0, mode: 'template', subject: 'For {{ company }}', body: 'In {{ state }}' }], 'camel'), 1).steps[0]!;
    const draft = draftStep({ step, stepIndex: 0, leadKey: 'lead_1', lead, sender, calendarLink: null, winner: null, thread: { subject: null, messageIds: [] } });
    expect(draft).to.have.property('omitted').that.matches(/^no value for state in the body/);
  });

  it('refuses at create what cannot render: syntax, unknown variables and filters, loops, file access, deep nesting; each names the step and the field', () => {
    expect(refusal(one({ body: 'Hi {{ frist_name }}' }))).to.match(/^sequence\[0\] \(step 1\) body: unknown variable "frist_name" \(available: first_name/);
    expect(refusal(one({ subject: 'Hi {{ sender.title }}' }))).to.match(/^sequence\[0\] \(step 1\) subject: unknown variable "sender.title"/);
    expect(refusal(one({ body: 'Hi {{ custom.Plan }}' }))).to.match(/"custom.Plan" is not a custom field name/);
    expect(refusal(one({ body: 'Hi {{ first_name }' }))).to.match(/body: output "\{\{ first_name \}" not closed/);
    expect(refusal(one({ body: '{{ first_name | shout }}' }))).to.match(/unknown filter: shout/);
    expect(refusal(one({ body: '{% for i in (1..1000000) %}x{% endfor %}' }))).to.match(/the tag \{% for %\} is not allowed/);
    expect(refusal(one({ body: '{% include "secrets" %}' }))).to.match(/the tag \{% include %\} is not allowed/);
    expect(refusal(one({ body: `${'{% if a %}'.repeat(30)}x${'{% endif %}'.repeat(30)}` }))).to.match(/blocks nest 30 deep; at most 20/);
    // Allowed tags, and a thousand filters in a row, are fine; output that explodes is refused within its limits.
    expect(() => validateSequence(one({ body: `{{ "x"${' | append: "x"'.repeat(50)} }}` }), 'camel')).not.to.throw();
    expect(refusal(one({ body: `{{ "x"${' | append: "a|b"'.repeat(1000)} }}` }))).to.match(/one output applies 1000 filters; at most 50/);
    const doubling = `{% assign s = "xx" %}${'{% assign s = s | append: s %}'.repeat(40)}{{ s }}`;
    expect(refusal(one({ body: doubling }))).to.match(/cannot be rendered within the limits \(memory alloc limit exceeded\)/);
    expect(refusal(one({ body: '{{ (1..1000000) | join: "," }}' }))).to.match(/cannot be rendered within the limits/);
  });

  it('refuses a sequence that cannot be sent as written, naming the step', () => {
    expect(refusal([])).to.equal('sequence must have at least one step');
    expect(refusal(Array.from({ length: 11 }, (_v, i) => ({ delayDays: i === 0 ? 0 : 1, mode: 'template' as const, subject: 'S', body: 'B' })))).to.equal('sequence has 11 steps; at most 10 are allowed');
    expect(refusal(one({ delayDays: 2 }))).to.match(/^sequence\[0\] \(step 1\): delayDays must be 0/);
    expect(refusal([...one({}), { delayDays: 0, mode: 'template', body: 'x' }])).to.match(/^sequence\[1\] \(step 2\): delayDays must be at least 1/);
    expect(refusal(one({ subject: null }))).to.match(/subject is required on the first step/);
    expect(refusal(one({ mode: 'ai', body: undefined }))).to.match(/instructions are required for mode "ai"/);
    expect(refusal(one({ instructions: 'be nice' }))).to.match(/instructions belong to mode "ai"/);
    expect(refusal([{ delayDays: 0, mode: 'template', subject: 'S', body: 'B', variants: [{ mode: 'template', subject: 'a', body: 'b' }] }])).to.match(/either mode with its content or variants, not both/);
    expect(
      refusal([
        {
          delayDays: 0,
          variants: [
            { weight: 0, mode: 'template', subject: 'a', body: 'b' },
            { weight: 0, mode: 'template', subject: 'c', body: 'd' },
          ],
        },
      ]),
    ).to.equal("sequence[0] (step 1): the variants' weights sum to 0; give at least one a positive weight");
    expect(refusal([{ delayDays: 0, mode: 'template', subject: 'S', body: 'B', autoWinner: { metric: 'reply_rate' } }])).to.match(/autoWinner needs at least two variants/);
    expect(refusal([{ delayDays: 0, variants: [{ mode: 'template', subject: 'ok', body: 'fine' }, { mode: 'template', subject: 'bad {{ nope }}', body: 'x' }] }])).to.match(
      /^sequence\[0\] \(step 1\) variants\[1\] \(variant B\) subject: unknown variable "nope"/,
    );
    // The casing of the surface that asked: Surface A says delay_days.
    expect(() => validateSequence(one({ delayDays: 1 }), 'snake')).to.throw(InvalidInputError, /delay_days must be 0/);
  });

  it('chooses variants in proportion to their weights, the same for a lead every time, and the winner once decided', () => {
    const variants = [
      { id: 'A' as const, weight: 1 },
      { id: 'B' as const, weight: 3 },
      { id: 'C' as const, weight: 0 },
    ];
    const counts = { A: 0, B: 0, C: 0 };
    for (let i = 0; i < 4000; i++) counts[chooseVariant(variants, `lead_${i}`, 0).id]++;
    expect(counts.C).to.equal(0);
    // Expected 1000 / 3000: chi-square with 1 degree of freedom below 10.8 (p < 0.001).
    const chi2 = (counts.A - 1000) ** 2 / 1000 + (counts.B - 3000) ** 2 / 3000;
    expect(chi2, JSON.stringify(counts)).to.be.lessThan(10.8);
    expect(chooseVariant(variants, 'lead_7', 2).id).to.equal(chooseVariant(variants, 'lead_7', 2).id);
    expect(chooseVariant(variants, 'lead_7', 2, 'A').id).to.equal('A');
    expect(spinChoices([2, 3], 'lead_7', 1, 'A:body')).to.deep.equal(spinChoices([2, 3], 'lead_7', 1, 'A:body'));
  });

  it('a step with no subject replies in its thread; one whose thread never started is passed over', () => {
    const seq = compileSequence(
      validateSequence(
        [
          { delayDays: 0, mode: 'template', subject: 'Pricing at {{ company }}', body: 'One' },
          { delayDays: 3, mode: 'template', body: 'Two' },
        ],
        'camel',
      ),
      1,
    );
    const base = { stepIndex: 1, leadKey: 'lead_1', lead, sender, calendarLink: null, winner: null } as const;
    const reply = draftStep({ ...base, step: seq.steps[1]!, thread: { subject: 'Pricing at Finlytics', messageIds: ['<a@x>'] } });
    expect(reply).to.deep.include({ inThread: true, subject: 'Re: Pricing at Finlytics', text: 'Two' });
    expect(draftStep({ ...base, step: seq.steps[1]!, thread: { subject: null, messageIds: [] } })).to.have.property('omitted').that.matches(/no email of that thread was sent/);
  });

  it('a template problem is a TemplateProblem, never a raw engine error', () => {
    expect(() => compileTemplate('{% unless %}')).to.throw(TemplateProblem);
  });
});
