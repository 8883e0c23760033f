package runtimetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// blockingFS blocks every ReadDir until release is closed.
type blockingFS struct {
	core.FS
	entered chan struct{}
	once    sync.Once
	release chan struct{}
}

func (b *blockingFS) ReadDir(p string) ([]core.DirEntry, error) {
	b.once.Do(func() { close(b.entered) })
	<-b.release
	return b.FS.ReadDir(p)
}

// TestEngine_doneContextDoesNotWait: while one call is stuck in a blocking
// filesystem, a second Call whose deadline passes returns ctx.Err() instead
// of waiting for the engine forever (the package doc's
// promise for a done context).
func TestEngine_doneContextDoesNotWait(t *testing.T) {
	fsys := &blockingFS{FS: memfs.New(), entered: make(chan struct{}), release: make(chan struct{})}
	e := newEngine(t, fsys)
	req := []byte(`{"op":"discover","cwd":"/w","home":"/h"}`)
	first := make(chan error, 1)
	go func() {
		_, err := e.Call(context.Background(), req)
		first <- err
	}()
	<-fsys.entered
	second := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := e.Call(ctx, req)
		second <- err
	}()
	select {
	case err := <-second:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("second call: %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("a Call with a 100 ms deadline still waits after 30 s behind a stuck call")
	}
	close(fsys.release)
	if err := <-first; err != nil {
		t.Errorf("first call: %v", err)
	}
}
