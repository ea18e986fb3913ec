package tmux

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Wire constants, from tmux's tmux-protocol.h (tmux.h before 3.3) and
// compat/imsg.h. Values are stable from tmux 3.1 to 3.7c.
const (
	protocolVersion = 8 // PROTOCOL_VERSION, carried in the low byte of peerid

	headerSize = 16    // IMSG_HEADER_SIZE
	maxMessage = 16384 // MAX_IMSGSIZE, header included
	maxPayload = maxMessage - headerSize

	// maxArgv is the most packed argv (NUL-terminated strings) one
	// MSG_COMMAND can carry: the payload less struct msg_command.
	maxArgv = maxPayload - 4
	// maxChunk is the most data one MSG_READ carries: the payload less
	// struct msg_read_data. tmux's client reads stdin in chunks of this size.
	maxChunk = maxPayload - 4
)

// Message types (enum msgtype).
const (
	msgVersion = 12

	msgIdentifyFlags     = 100
	msgIdentifyTerm      = 101
	msgIdentifyTTYName   = 102
	msgIdentifyStdin     = 104
	msgIdentifyEnviron   = 105
	msgIdentifyDone      = 106
	msgIdentifyClientPID = 107
	msgIdentifyCwd       = 108
	msgIdentifyFeatures  = 109
	msgIdentifyStdout    = 110
	msgIdentifyLongFlags = 111

	msgCommand    = 200
	msgDetach     = 201
	msgDetachKill = 202
	msgExit       = 203
	msgExited     = 204
	msgExiting    = 205
	msgReady      = 207
	msgShutdown   = 210
	msgOldStderr  = 211
	msgOldStdin   = 212
	msgOldStdout  = 213
	msgFlags      = 218

	msgReadOpen   = 300
	msgRead       = 301
	msgReadDone   = 302
	msgWriteOpen  = 303
	msgWrite      = 304
	msgWriteReady = 305
	msgWriteClose = 306
	msgReadCancel = 307
)

// Client flags (tmux.h). A command client sends CLIENT_UTF8 alone;
// CLIENT_CONTROL only a control client, with the descriptors it must pass
// (see [Request.encodeControl]).
const (
	clientUTF8    = 0x10000
	clientControl = 0x2000
)

// byteOrder is the order of every integer on the wire: the host's, since a
// tmux client and server always share a host.
var byteOrder = binary.NativeEndian

// littleEndian reports whether the host is little-endian. Only there is a
// descriptor-free header the same in both imsg layouts (16-bit len plus
// 16-bit flags up to tmux 3.5a, 32-bit len from 3.6): on a big-endian host
// the two put the length in different bytes.
func littleEndian() bool {
	var b [2]byte
	byteOrder.PutUint16(b[:], 1)
	return b[0] == 1
}

// appendHeader appends an imsg header for a message of type typ with a
// payload of n bytes. The length is written as a 32-bit value: on a
// little-endian host its first two bytes are the old 16-bit len and its
// last two the old flags (zero: no descriptor), so servers before and after
// tmux 3.6 read the same message.
func appendHeader(b []byte, typ uint32, n int) []byte {
	b = byteOrder.AppendUint32(b, typ)
	b = byteOrder.AppendUint32(b, uint32(headerSize+n))
	b = byteOrder.AppendUint32(b, protocolVersion)
	b = byteOrder.AppendUint32(b, uint32(pid))
	return b
}

// appendFDHeader appends the header of an empty message (IDENTIFY_STDIN,
// IDENTIFY_STDOUT) sent with a descriptor. Here the layouts differ
// (compat/imsg.h): up to tmux 3.5a a 16-bit len and a 16-bit flags field
// whose bit 0 (IMSGF_HASFD) marks the descriptor; from 3.6 (imsg.c 1.42) a
// 32-bit len whose bit 31 (IMSG_FD_MARK) does. Each server reads the other
// layout wrongly: 3.6 sees a length over the limit and drops the client,
// 3.5a ignores the descriptor. newStyle picks 3.6's.
func appendFDHeader(b []byte, typ uint32, newStyle bool) []byte {
	b = byteOrder.AppendUint32(b, typ)
	if newStyle {
		b = byteOrder.AppendUint32(b, headerSize|1<<31)
	} else {
		b = byteOrder.AppendUint16(b, headerSize)
		b = byteOrder.AppendUint16(b, 1)
	}
	b = byteOrder.AppendUint32(b, protocolVersion)
	return byteOrder.AppendUint32(b, uint32(pid))
}

// appendMessage appends one whole message. The caller keeps payload within
// maxPayload.
func appendMessage(b []byte, typ uint32, payload ...[]byte) []byte {
	n := 0
	for _, p := range payload {
		n += len(p)
	}
	b = appendHeader(b, typ, n)
	for _, p := range payload {
		b = append(b, p...)
	}
	return b
}

// header is a decoded imsg header.
type header struct {
	typ    uint32
	size   int // payload bytes following the header
	peerid uint32
}

var errBadHeader = errors.New("bad message header")

// parseHeader decodes a header from a server. The server never passes a
// descriptor, so any bit beyond a valid length (old-layout flags, the 3.6
// descriptor mark) is a fault, as is a length outside
// headerSize..maxMessage.
func parseHeader(b []byte) (header, error) {
	if len(b) < headerSize {
		return header{}, errBadHeader
	}
	n := byteOrder.Uint32(b[4:8])
	if n < headerSize || n > maxMessage {
		return header{}, fmt.Errorf("%w: length field %#x", errBadHeader, n)
	}
	return header{
		typ:    byteOrder.Uint32(b[0:4]),
		size:   int(n) - headerSize,
		peerid: byteOrder.Uint32(b[8:12]),
	}, nil
}

// int32s appends each value as a C int.
func int32s(vs ...int32) []byte {
	b := make([]byte, 0, 4*len(vs))
	for _, v := range vs {
		b = byteOrder.AppendUint32(b, uint32(v))
	}
	return b
}

// getInt32 reads the C int at offset i of p; p must be long enough.
func getInt32(p []byte, i int) int32 { return int32(byteOrder.Uint32(p[i : i+4])) }

// cstring returns s NUL-terminated.
func cstring(s string) []byte { return append([]byte(s), 0) }

// exitPayload decodes MSG_EXIT and MSG_SHUTDOWN: empty, or a C int status
// optionally followed by a message that tmux's client prints on stderr. As
// tmux's client does, the message ends at its last byte, which stands for
// the terminating NUL whatever it holds.
func exitPayload(p []byte) (status int, message string, err error) {
	switch {
	case len(p) == 0:
		return 0, "", nil
	case len(p) < 4:
		return 0, "", errors.New("exit message shorter than its status")
	}
	status = int(getInt32(p, 0))
	if len(p) > 4 {
		m := p[4 : len(p)-1]
		for i, c := range m { // stop at an earlier NUL, as C would
			if c == 0 {
				m = m[:i]
				break
			}
		}
		message = string(m)
	}
	return status, message, nil
}

// openPayload decodes MSG_READ_OPEN (fixed = 2 ints: stream, fd) or
// MSG_WRITE_OPEN (fixed = 3 ints: stream, fd, flags). The path that may
// follow is only read for error messages, so it is not returned.
func openPayload(p []byte, fixed int) (stream, fd int32, err error) {
	if len(p) < 4*fixed {
		return 0, 0, fmt.Errorf("open message of %d bytes, want at least %d", len(p), 4*fixed)
	}
	return getInt32(p, 0), getInt32(p, 4), nil
}
