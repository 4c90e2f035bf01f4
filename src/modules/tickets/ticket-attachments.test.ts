import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAttachments, contentDisposition, safeFilename } from './ticket-attachments.js';

test('safeFilename keeps the name and drops paths, control and quoting characters', () => {
  assert.equal(safeFilename('../../etc/passwd.txt'), 'passwd.txt');
  assert.equal(safeFilename('C:\\Users\\me\\log.txt'), 'log.txt');
  assert.equal(safeFilename('a\u0000b\r\n"c".txt'), 'abc.txt');
  assert.equal(safeFilename('...hidden.txt'), 'hidden.txt');
  assert.equal(safeFilename('résumé ✓.pdf'), 'résumé ✓.pdf');
  assert.equal(safeFilename('x'.repeat(300)).length, 200);
});

test('contentDisposition is always an attachment with an ASCII fallback and the UTF-8 name', () => {
  assert.equal(contentDisposition('résumé.pdf'), `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  assert.equal(contentDisposition('a"b\\c.txt'), `attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`);
});

test('checkAttachments: jpeg and webp by their bytes; case of the type does not matter', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
  const out = checkAttachments([
    { filename: 'a.JPG', content_type: 'IMAGE/JPEG', content_base64: jpeg.toString('base64') },
    { filename: 'b.webp', content_type: 'image/webp', content_base64: webp.toString('base64') },
  ]);
  assert.deepEqual(out.map((f) => [f.contentType, f.sizeBytes]), [['image/jpeg', 7], ['image/webp', webp.length]]);
  assert.throws(() => checkAttachments([{ filename: 'b.webp', content_type: 'image/webp', content_base64: jpeg.toString('base64') }]), /Validation/);
  assert.deepEqual(checkAttachments(undefined), []);
});
