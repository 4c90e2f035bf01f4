/**
 * Who a document is from and to: the issuing company (legal name, address, tax number) and the
 * customer it is made out to. Receipts and invoices print both.
 */
export interface DocumentParties {
  issuer(): Promise<string[]>;
  billTo(customerId: number): Promise<string[]>;
}

export interface PdfColumn {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

export interface TablePdf {
  title: string;
  /** printed under "Issued by" and "Billed to", side by side, before `lines` */
  parties?: { issuer: string[]; billTo: string[] };
  lines: string[];
  columns: PdfColumn[];
  rows: string[][];
  footer?: string[];
}

/** A one-table A4 document (statements, exports); rows continue on new pages with the header repeated. */
export async function renderTablePdf(spec: TablePdf): Promise<Buffer> {
  // loaded at the first PDF, not at start-up (it is one of the heaviest modules)
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: spec.title } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    doc.font('Helvetica-Bold').fontSize(16).text(spec.title);
    if (spec.parties) {
      doc.moveDown(0.5);
      const top = doc.y;
      const half = (doc.page.width - doc.page.margins.left - doc.page.margins.right) / 2;
      const block = (heading: string, lines: string[], x: number) => {
        doc.font('Helvetica-Bold').fontSize(9).text(heading, x, top, { width: half - 10 });
        doc.font('Helvetica').fontSize(9);
        for (const line of lines) doc.text(line, x, undefined, { width: half - 10 });
        return doc.y;
      };
      const leftEnd = block('Issued by', spec.parties.issuer, doc.page.margins.left);
      const rightEnd = block('Billed to', spec.parties.billTo, doc.page.margins.left + half);
      doc.x = doc.page.margins.left;
      doc.y = Math.max(leftEnd, rightEnd);
    }
    doc.moveDown(0.3).font('Helvetica').fontSize(9);
    for (const line of spec.lines) doc.text(line);
    doc.moveDown();

    const left = doc.page.margins.left;
    const bottom = doc.page.height - doc.page.margins.bottom;
    const rowHeight = 16;
    const drawRow = (cells: string[], bold: boolean) => {
      if (doc.y + rowHeight > bottom) {
        doc.addPage();
        if (!bold) drawRow(spec.columns.map((c) => c.header), true);
      }
      const y = doc.y;
      let x = left;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
      spec.columns.forEach((col, i) => {
        doc.text(cells[i] ?? '', x + 2, y + 4, { width: col.width - 4, align: col.align ?? 'left', lineBreak: false, ellipsis: true });
        x += col.width;
      });
      doc.moveTo(left, y + rowHeight).lineTo(x, y + rowHeight).lineWidth(0.3).strokeColor('#999999').stroke();
      doc.x = left;
      doc.y = y + rowHeight;
    };
    drawRow(spec.columns.map((c) => c.header), true);
    for (const row of spec.rows) drawRow(row, false);
    if (spec.footer?.length) {
      doc.moveDown().font('Helvetica').fontSize(9);
      for (const line of spec.footer) doc.text(line, left);
    }
    doc.end();
  });
}
