// A small Markdown renderer that builds DOM nodes with textContent only.
// Model output can never become markup: there is no innerHTML anywhere in this file.
"use strict";

const SAFE_LINK = /^(https?:|mailto:)/i;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Inline: `code`, **bold**, *em* / _em_, [text](url)
const INLINE = /(`+)([\s\S]*?)\1|\*\*([\s\S]+?)\*\*|(?<![\w*])\*(?!\s)([^*]+?)\*(?!\w)|(?<!\w)_(?!\s)([^_]+?)_(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(parent, text) {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    if (m[1]) parent.appendChild(el("code", null, m[2]));
    else if (m[3] !== undefined) inline(parent.appendChild(el("strong")), m[3]);
    else if (m[4] !== undefined) inline(parent.appendChild(el("em")), m[4]);
    else if (m[5] !== undefined) inline(parent.appendChild(el("em")), m[5]);
    else if (m[6] !== undefined) {
      if (SAFE_LINK.test(m[7])) {
        const a = el("a", null, m[6]);
        a.href = m[7];
        a.target = "_blank";
        a.rel = "noopener noreferrer";
        parent.appendChild(a);
      } else parent.appendChild(document.createTextNode(m[0]));
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}

export function renderMarkdown(text) {
  const root = el("div", "md");
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  let para = [];
  const flush = () => {
    if (para.length) {
      inline(root.appendChild(el("p")), para.join("\n"));
      para = [];
    }
  };
  while (i < lines.length) {
    const line = lines[i];
    const fence = line.match(/^\s*(```+|~~~+)\s*([\w+-]*)/);
    if (fence) {
      flush();
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      const pre = el("pre");
      const code = el("code", null, body.join("\n"));
      if (fence[2]) code.dataset.lang = fence[2];
      pre.appendChild(code);
      root.appendChild(pre);
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      flush();
      inline(root.appendChild(el("h" + Math.min(6, heading[1].length + 2))), heading[2]);
      i++;
      continue;
    }
    const item = line.match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1]);
      const list = root.appendChild(el(ordered ? "ol" : "ul"));
      while (i < lines.length) {
        const m = lines[i].match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
        if (!m || /\d/.test(m[1]) !== ordered) break;
        const li = list.appendChild(el("li"));
        const box = m[2].match(/^\[([ xX~])\]\s+(.*)$/);
        if (box) {
          li.className = box[1] === " " ? "todo" : box[1] === "~" ? "todo doing" : "todo done";
          inline(li, box[2]);
        } else inline(li, m[2]);
        i++;
      }
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const quote = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ""));
      inline(root.appendChild(el("blockquote")), quote.join("\n"));
      continue;
    }
    if (/^\s*([-*_])\s*\1\s*\1[\s\1]*$/.test(line)) {
      flush();
      root.appendChild(el("hr"));
      i++;
      continue;
    }
    if (!line.trim()) {
      flush();
      i++;
      continue;
    }
    para.push(line);
    i++;
  }
  flush();
  return root;
}

export { el };
