//! A turn's deadline ([`GmLimits::turn_deadline`](super::GmLimits::turn_deadline)).

use std::future::Future;
use std::task::Poll;
use std::time::{Duration, Instant};

use futures::FutureExt;

/// Runs `work` for at most `limit`; `None` when the time ran out first.
///
/// The timer is armed only once `work` waits (on the model, the store): setting a timer wakes
/// the timer thread, and so does dropping it, which costs more than a whole turn that never
/// waits (a local model answering from cache, a test, the turn bench). The limit still counts
/// from the call.
pub(super) async fn within<T>(limit: Duration, work: impl Future<Output = T>) -> Option<T> {
    let started = Instant::now();
    let mut work = std::pin::pin!(work);
    let mut timer: Option<futures_timer::Delay> = None;
    std::future::poll_fn(|cx| {
        if let Poll::Ready(done) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(done));
        }
        timer
            .get_or_insert_with(|| {
                futures_timer::Delay::new(limit.saturating_sub(started.elapsed()))
            })
            .poll_unpin(cx)
            .map(|()| None)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_that_never_waits_finishes_even_with_no_time() {
        assert_eq!(within(Duration::ZERO, async { 7 }).await, Some(7));
    }

    #[tokio::test]
    async fn work_that_waits_past_the_limit_is_stopped() {
        let slow = futures_timer::Delay::new(Duration::from_secs(30));
        let started = Instant::now();
        assert_eq!(within(Duration::from_millis(20), slow).await, None);
        // Stopped at the limit, not after the work's 30 s (a loaded machine may be slow).
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[tokio::test]
    async fn work_that_waits_within_the_limit_finishes() {
        let quick = futures_timer::Delay::new(Duration::from_millis(5));
        assert_eq!(within(Duration::from_secs(30), quick).await, Some(()));
    }
}
