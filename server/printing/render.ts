import sharp from 'sharp';
import type { Ticket, TicketLine } from './ticket';

/**
 * Tickets are printed as a picture, in every language (docs: /tmp decisions "Kitchen printers"):
 * the text modes of thermal printers do not join Arabic letters or run them right to left, while
 * the SVG we draw is laid out by librsvg (Pango and HarfBuzz, inside sharp), which does both. The
 * font must be installed where the server runs: DejaVu Sans has Arabic and comes with fontconfig
 * on Debian (.ci/run checks `fc-list :lang=ar`).
 */

/** Dots across an 80 mm roll at 203 dpi (Star mC-Print3/TSP100IV, Epson TM-m30): the picture's width. */
export const TICKET_WIDTH = 576;
const MARGIN = 12;
/** How far an item's options stand in from its line. */
const INDENT = 28;
const SIZES: Record<TicketLine['size'], number> = { big: 34, normal: 26, small: 16 };
const FONT = "'DejaVu Sans', 'Noto Sans Arabic', sans-serif";

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Breaks a line at spaces so that it fits the roll (a glyph is about 0.6 of the font size wide). */
function wrap(text: string, size: number, indent: number): string[] {
  const max = Math.max(8, Math.floor((TICKET_WIDTH - 2 * MARGIN - indent) / (size * 0.6)));
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (next.length > max && line) { out.push(line); line = word; } else line = next;
    while (line.length > max) { out.push(line.slice(0, max)); line = line.slice(max); }
  }
  out.push(line);
  return out;
}

/** The ticket as an SVG document one roll wide, black on white. */
export function ticketSvg(ticket: Ticket): { svg: string; height: number } {
  const parts: string[] = [];
  let y = MARGIN;
  // Arabic starts at the right edge and runs leftwards; the text's own direction does the rest.
  const x = (indent: boolean) => (ticket.rtl ? TICKET_WIDTH - MARGIN - (indent ? INDENT : 0) : MARGIN + (indent ? INDENT : 0));
  const dir = ticket.rtl ? ' direction="rtl"' : '';
  for (const line of ticket.lines) {
    const size = SIZES[line.size];
    if (line.rule) {
      y += size / 2;
      parts.push(`<rect x="${MARGIN}" y="${y}" width="${TICKET_WIDTH - 2 * MARGIN}" height="2" fill="#000"/>`);
      y += size / 2;
      continue;
    }
    for (const piece of wrap(line.text, size, line.indent ? INDENT : 0)) {
      y += Math.round(size * 1.3);
      parts.push(`<text x="${x(!!line.indent)}" y="${y}" font-size="${size}"${line.bold ? ' font-weight="bold"' : ''}${dir}>${escapeXml(piece)}</text>`);
    }
  }
  // Room below the last line for the cutter.
  const height = y + 3 * SIZES.normal;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${TICKET_WIDTH}" height="${height}" viewBox="0 0 ${TICKET_WIDTH} ${height}">`
    + `<rect width="100%" height="100%" fill="#fff"/><g font-family="${FONT}" fill="#000">${parts.join('')}</g></svg>`;
  return { svg, height };
}

const mono = (svg: string) => sharp(Buffer.from(svg)).flatten({ background: '#fff' }).greyscale().threshold(128);

/** The ticket as a black-and-white PNG (Star CloudPRNT's image/png). */
export async function ticketPng(ticket: Ticket): Promise<Buffer> {
  return mono(ticketSvg(ticket).svg).png({ palette: true, colours: 2 }).toBuffer();
}

/**
 * The ticket as a raster for ePOS-Print's <image>: one bit per dot, a set bit black, the most
 * significant bit the leftmost dot, each row a whole number of bytes (TICKET_WIDTH is a multiple of 8).
 */
export async function ticketRaster(ticket: Ticket): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await mono(ticketSvg(ticket).svg).raw().toBuffer({ resolveWithObject: true });
  const rowBytes = Math.ceil(info.width / 8);
  const bits = Buffer.alloc(rowBytes * info.height);
  for (let row = 0; row < info.height; row++) {
    for (let col = 0; col < info.width; col++) {
      if (data[(row * info.width + col) * info.channels] < 128) bits[row * rowBytes + (col >> 3)] |= 0x80 >> (col & 7);
    }
  }
  return { width: info.width, height: info.height, data: bits };
}
