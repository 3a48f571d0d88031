package lsp

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// maxMessageBytes bounds one message's body; larger ones are skipped
// instead of being read into memory.
const maxMessageBytes = 256 << 20

// stream is jsonrpc2's header-framed stream made tolerant: jsonrpc2.Conn
// closes the connection on any read error, so a bad header or a body that is
// not a JSON-RPC message must not surface as one. Such a message is answered
// with a ParseError or InvalidRequest response (id null) and skipped; only
// the end of the input ends the stream.
//
// After a bad frame (a wrong Content-Length, a missing header, garbage)
// the reader resynchronises on the next "Content-Length:" wherever it is:
// in the middle of a line (garbage without a newline before it), or inside
// a body that did not decode (a length too long swallowed the next frame),
// whose rest is then read again.
type stream struct {
	rw      io.ReadWriteCloser
	in      *pushback
	writeMu sync.Mutex
	// body is the buffer notifications are framed in (under writeMu),
	// kept between writes: a 5,000-line file's diagnostics are a few
	// hundred KB per keystroke, which would otherwise be allocated and
	// copied again per publish and bring the collector round sooner.
	body []byte
	logf func(format string, args ...any)
}

func newStream(rw io.ReadWriteCloser, logf func(string, ...any)) *stream {
	return &stream{rw: rw, in: &pushback{r: bufio.NewReaderSize(rw, 64<<10)}, logf: logf}
}

// pushback is a buffered reader that can be handed bytes back, to be read
// again before the rest of the input.
type pushback struct {
	pending []byte
	r       *bufio.Reader
}

func (p *pushback) Read(b []byte) (int, error) {
	if len(p.pending) > 0 {
		n := copy(b, p.pending)
		p.pending = p.pending[n:]
		return n, nil
	}
	return p.r.Read(b)
}

func (p *pushback) ReadString(delim byte) (string, error) {
	if len(p.pending) == 0 {
		return p.r.ReadString(delim)
	}
	if i := bytes.IndexByte(p.pending, delim); i >= 0 {
		s := string(p.pending[:i+1])
		p.pending = p.pending[i+1:]
		return s, nil
	}
	head := string(p.pending)
	p.pending = nil
	rest, err := p.r.ReadString(delim)
	return head + rest, err
}

// unread puts b back in front of what is still to be read.
func (p *pushback) unread(b []byte) {
	p.pending = append(append([]byte(nil), b...), p.pending...)
}

// contentLength is the header resynchronisation looks for.
const contentLength = "content-length:"

// indexHeader returns where "Content-Length:" (any ASCII case) starts in
// b, or -1. (Not bytes.ToLower: it rewrites invalid UTF-8, moving offsets.)
func indexHeader(b []byte) int {
	for i := 0; i+len(contentLength) <= len(b); i++ {
		if b[i]|0x20 == 'c' && hasHeaderPrefix(b[i:], len(contentLength)) {
			return i
		}
	}
	return -1
}

// hasHeaderPrefix reports whether b starts with the first n bytes of
// contentLength, in any ASCII case.
func hasHeaderPrefix(b []byte, n int) bool {
	if len(b) < n {
		return false
	}
	for j := 0; j < n; j++ {
		c := b[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != contentLength[j] {
			return false
		}
	}
	return true
}

// resyncBody splits a body that did not decode at the first
// Content-Length header inside it, or before a tail that may begin one (a
// header the body's length cut off): it returns the bad message and the
// bytes to read again.
func resyncBody(body []byte) (bad, again []byte) {
	if i := indexHeader(body); i >= 0 {
		return body[:i], body[i:]
	}
	for n := min(len(contentLength)-1, len(body)); n > 0; n-- {
		if hasHeaderPrefix(body[len(body)-n:], n) {
			return body[:len(body)-n], body[len(body)-n:]
		}
	}
	return body, nil
}

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		body, n, err := s.readFrame()
		total += n
		if err != nil {
			if errors.Is(err, errBadFrame) {
				s.logf("skipping malformed message: %v", err)
				s.replyError(jsonrpc2.ParseError, err.Error())
				continue
			}
			return nil, total, err
		}
		if !json.Valid(body) {
			// A length too long swallows the next frame (the decoder
			// would take the first JSON value and drop the rest): read
			// again from the header inside the body.
			if bad, again := resyncBody(body); len(again) > 0 {
				s.logf("message length past its end: reading again from a header inside it")
				s.in.unread(again)
				body = bad
			}
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			code := jsonrpc2.ParseError
			if errors.Is(err, jsonrpc2.ErrInvalidRequest) || stdjson.Valid(body) {
				code = jsonrpc2.InvalidRequest
			}
			s.logf("skipping malformed message: %v", err)
			s.replyError(code, "malformed JSON-RPC message: "+err.Error())
			continue
		}
		return msg, total, nil
	}
}

var errBadFrame = errors.New("bad frame")

// readFrame reads one header block and its body. A broken header block
// yields errBadFrame (the reader then resynchronises on the next header);
// I/O errors, io.EOF included, are returned as they are.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	var bad string
	sawHeader := false
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if err == io.EOF && total > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, total, err
		}
		if i := indexHeader([]byte(line)); i > 0 {
			// Garbage, or the rest of a bad message, before a header.
			s.logf("skipping %d bytes before a header: %q", i, truncate(line[:i], 40))
			line = line[i:]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("invalid header line %q", truncate(line, 80))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), jsonrpc2.HdrContentLength) {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 {
				bad = fmt.Sprintf("invalid Content-Length %q", truncate(value, 40))
				continue
			}
			length = n
		}
	}
	if length < 0 {
		if bad == "" {
			bad = "missing Content-Length header"
		}
		return nil, total, fmt.Errorf("%w: %s", errBadFrame, bad)
	}
	if length > maxMessageBytes {
		n, err := io.CopyN(io.Discard, s.in, length)
		total += n
		if err != nil {
			return nil, total, err
		}
		return nil, total, fmt.Errorf("%w: message of %d bytes is too large", errBadFrame, length)
	}
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, err
	}
	if bad != "" {
		s.logf("ignoring header: %s", bad)
	}
	return body, total, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// replyError answers an unreadable message with an error response whose id
// is null, as JSON-RPC 2.0 prescribes.
func (s *stream) replyError(code jsonrpc2.Code, message string) {
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": message},
	})
	if err == nil {
		s.writeRaw(data)
	}
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if n, ok := msg.(*jsonrpc2.Notification); ok {
		// The server's largest messages (publishDiagnostics) are
		// notifications whose params jsonrpc2 has just encoded, compact and
		// valid: frame them as they are instead of encoding them again
		// (Notification.MarshalJSON re-scans and re-escapes every byte).
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
		s.body = appendNotification(s.body[:0], n.Method(), n.Params())
		return s.writeLocked(s.body)
	}
	// segmentio's encoder, as jsonrpc2's own stream uses: the standard
	// library re-scans the (already encoded) params of every message.
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(data)
}

// appendNotification appends to buf the JSON-RPC 2.0 notification of
// method with params (already encoded JSON; omitted when empty), as
// jsonrpc2 writes it.
func appendNotification(buf []byte, method string, params []byte) []byte {
	m, _ := json.Marshal(method) // a string always encodes
	buf = slices.Grow(buf, len(params)+len(m)+40)
	buf = append(buf, `{"jsonrpc":"2.0","method":`...)
	buf = append(buf, m...)
	if len(params) > 0 {
		buf = append(buf, `,"params":`...)
		buf = append(buf, params...)
	}
	return append(buf, '}')
}

// paramsFlags are the flags jsonrpc2 encodes params with: its
// NewNotification calls segmentio's json.Marshal, which is json.Append
// with these.
const paramsFlags = json.EscapeHTML | json.SortMapKeys

// notify writes the notification of method with params, encoding params
// straight into the stream's reused buffer. The bytes are those of
// jsonrpc2.Conn.Notify through Write (TestNotifyMatchesConn): Notify
// would encode params into a fresh buffer, copy it into another, and
// Write would copy it a third time into body, for a 5,000-line file's
// diagnostics a few hundred KB each per keystroke.
func (s *stream) notify(ctx context.Context, method string, params any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	m, _ := json.Marshal(method) // a string always encodes
	buf := append(s.body[:0], `{"jsonrpc":"2.0","method":`...)
	buf = append(buf, m...)
	buf = append(buf, `,"params":`...)
	buf, err := json.Append(buf, params, paramsFlags)
	if err != nil {
		s.body = buf[:0]
		return fmt.Errorf("marshaling notify parameters: %w", err)
	}
	s.body = append(buf, '}')
	_, err = s.writeLocked(s.body)
	return err
}

func (s *stream) writeRaw(data []byte) (int64, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.writeLocked(data)
}

// writeLocked writes one message, its header and then its body, under
// writeMu (so no other message comes between them).
func (s *stream) writeLocked(data []byte) (int64, error) {
	var hdr [64]byte
	h := append(hdr[:0], jsonrpc2.HdrContentLength+": "...)
	h = strconv.AppendInt(h, int64(len(data)), 10)
	h = append(h, "\r\n\r\n"...)
	n, err := s.rw.Write(h)
	if err != nil {
		return int64(n), err
	}
	m, err := s.rw.Write(data)
	return int64(n + m), err
}

// Close implements jsonrpc2.Stream.
func (s *stream) Close() error { return s.rw.Close() }
