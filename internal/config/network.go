package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Bounds of network.idleTimeout in a settings file, in seconds. Shorter
// waits would fail requests to a healthy server that thinks a while; the
// environment variable may go lower, for tests.
const (
	MinIdleTimeout = 1
	MaxIdleTimeout = 3600
)

// DefaultIdleTimeout is the idle timeout when nothing sets one.
const DefaultIdleTimeout = 90 * time.Second

// IdleTimeout is how long a model request may receive nothing:
// $PONDER_IDLE_TIMEOUT (seconds, fractions allowed), else
// network.idleTimeout, else 90 s.
func (c *Config) IdleTimeout() (time.Duration, error) {
	if v := strings.TrimSpace(c.getenv("PONDER_IDLE_TIMEOUT")); v != "" {
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(secs) || secs <= 0 || secs > MaxIdleTimeout {
			return 0, fmt.Errorf("PONDER_IDLE_TIMEOUT=%q: want a number of seconds above 0 and at most %d", v, MaxIdleTimeout)
		}
		return time.Duration(secs * float64(time.Second)), nil
	}
	if p := c.Settings.Network.IdleTimeout; p != nil {
		return time.Duration(*p * float64(time.Second)), nil
	}
	return DefaultIdleTimeout, nil
}
