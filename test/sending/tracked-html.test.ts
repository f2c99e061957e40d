import { expect } from 'chai';
import { load } from 'cheerio';
import { trackHtml } from '../../src/sending/tracked-html';
import { TrackingLinks } from '../../src/tracking/links';

const BASE = 'https://track.example.test';
const links = new TrackingLinks('test-secret', BASE);
const EMAIL = 'em_abc123';
const track = (html: string): string => trackHtml(html, EMAIL, links, BASE, links.unsubscribeUrl(EMAIL));

/** What a mail client renders: the body's elements after parsing the sent HTML as a browser would. */
function rendered(html: string) {
  const $ = load(html);
  return { $, last: $('body').children().last(), hrefs: $('a').map((_i, el) => $(el).attr('href')).get() };
}

describe('tracked HTML part', () => {
  it('tracks what the campaign chose: no beacon without opens, links as written without clicks', () => {
    const html = '<p>See <a href="https://example.com/pricing">pricing</a></p>';
    const none = trackHtml(html, EMAIL, links, BASE, links.unsubscribeUrl(EMAIL), { opens: false, clicks: false });
    const { $, hrefs } = rendered(none);
    expect(hrefs).to.deep.equal(['https://example.com/pricing', links.unsubscribeUrl(EMAIL)]);
    expect(none).not.to.contain('/t/o/');
    expect($('p').last().attr('style')).not.to.contain('background-image');
    const clicksOnly = rendered(trackHtml(html, EMAIL, links, BASE, links.unsubscribeUrl(EMAIL), { opens: false, clicks: true }));
    expect(clicksOnly.hrefs[0]).to.equal(links.clickUrl(EMAIL, 0, 'https://example.com/pricing'));
  });

  it('a whole document gets the unsubscribe line, with the open beacon as its background, at the end of its body, even with "</body>" in a comment', () => {
    const out = track('<html><head><title>Hi</title></head><body><p>Read <a href="https://example.com/a?x=1&amp;y=2">this</a></p><!-- </body> --></body></html>');
    const { $, last, hrefs } = rendered(out);
    expect(last.is('p')).to.equal(true);
    expect(last.text()).to.match(/unsubscribe/);
    expect(last.attr('style')).to.contain(`background-image:url(${links.openPixelUrl(EMAIL)})`);
    // No <img>: an image beside a short text is what spam filters score as image spam.
    expect($('img')).to.have.length(0);
    // The entity-encoded URL is signed as the browser would follow it.
    expect(hrefs).to.deep.equal([links.clickUrl(EMAIL, 0, 'https://example.com/a?x=1&y=2'), links.unsubscribeUrl(EMAIL)]);
    expect($('title').text()).to.equal('Hi');
    expect(out).to.contain('<!-- </body> -->');
  });

  it('a fragment whose comment says "</body>" still ends with the beacon line, not inside the comment', () => {
    const out = track('<p>Hello <a href="http://example.org/">there</a></p><!-- </body> -->');
    const { last, hrefs } = rendered(out);
    expect(last.is('p')).to.equal(true);
    expect(last.attr('style')).to.contain(links.openPixelUrl(EMAIL));
    expect(hrefs).to.deep.equal([links.clickUrl(EMAIL, 0, 'http://example.org/'), links.unsubscribeUrl(EMAIL)]);
  });

  it('leaves links it must not track as they are, and numbers the tracked ones in document order', () => {
    const html = [
      '<a href="mailto:a@example.com">m</a>',
      '<a href="https://one.example/">1</a>',
      '<a href="#top">t</a>',
      `<a href="${BASE}/u/already">u</a>`,
      '<pre>&lt;a href="https://not.a.link/"&gt;</pre>',
      '<a href="https://two.example/">2</a>',
    ].join('');
    const { hrefs } = rendered(track(html));
    expect(hrefs).to.deep.equal([
      'mailto:a@example.com',
      links.clickUrl(EMAIL, 0, 'https://one.example/'),
      '#top',
      `${BASE}/u/already`,
      links.clickUrl(EMAIL, 1, 'https://two.example/'),
      links.unsubscribeUrl(EMAIL),
    ]);
  });
});
