/**
 * The deep search pages' Markdown subset: what it renders (headings shifted under the page's,
 * paragraphs, lists, fenced code, inline code, emphasis, http(s) and same-origin links) and that
 * everything else, raw HTML and links to other schemes or hosts above all, comes out as text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markdownHtml, safeHref } from '../../../src/api/deepsearch/markdown-html.js';

const render = (markdown: string): string => markdownHtml(markdown).text;

describe('the deep search Markdown subset', () => {
  it('renders headings, paragraphs, lists, code blocks, inline code, emphasis and links', () => {
    assert.equal(render('# Title\n\nOne **two** _three_ `four`\nfive'), '<h3>Title</h3>\n<p>One <strong>two</strong> <em>three</em> <code>four</code>\nfive</p>');
    assert.equal(render('- a\n- b\n  more\n\n1. c\n2) d'), '<ul><li>a</li><li>b\nmore</li></ul>\n<ol><li>c</li><li>d</li></ol>');
    assert.equal(render('```go\nif a < b {\n```'), '<pre><code class="language-go">if a &#60; b {</code></pre>');
    assert.equal(render('###### deep'), '<h6>deep</h6>', 'levels stop at h6');
    assert.equal(render('[router.go:4-6](https://q.test/github.com/a/b@c/-/blob/router.go?L4-6&x=1)'), '<p><a href="https://q.test/github.com/a/b@c/-/blob/router.go?L4-6&#38;x=1">router.go:4-6</a></p>');
    assert.equal(render('[here](/github.com/a/b)'), '<p><a href="/github.com/a/b">here</a></p>');
  });

  it('escapes raw HTML everywhere: text, headings, list items, code, link labels', () => {
    const hostile = '<script>alert(1)</script>';
    for (const markdown of [hostile, `# ${hostile}`, `- ${hostile}`, `\`${hostile}\``, `\`\`\`\n${hostile}\n\`\`\``, `[${hostile}](https://x.test/)`, `**${hostile}**`]) {
      const out = render(markdown);
      assert.ok(!out.includes('<script'), `${markdown} -> ${out}`);
      assert.ok(out.includes('&#60;script&#62;alert(1)&#60;/script&#62;'), `${markdown} -> ${out}`);
    }
    assert.equal(render('<img src=x onerror="alert(1)">'), '<p>&#60;img src=x onerror=&#34;alert(1)&#34;&#62;</p>');
    assert.equal(render('```x" onmouseover="alert(1)\nq\n```'), '<pre><code class="language-x">q</code></pre>', 'a fence\'s language is a word; the rest of its line is dropped');
  });

  it('links only to http(s) and this server; any other target shows its label alone', () => {
    for (const target of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', '//evil.test/x', '/\\evil.test', 'vbscript:x', 'file:///etc/passwd']) {
      assert.equal(safeHref(target), null, target);
      assert.equal(render(`[click](${target})`).includes('<a '), false, target);
    }
    assert.equal(render('[click](javascript:void%200)'), '<p>click</p>');
    for (const target of ['https://x.test/a', 'http://127.0.0.1:7080/r/-/blob/a.go?L1', '/github.com/a/b', '#question-3']) assert.equal(safeHref(target), target);
  });
});
