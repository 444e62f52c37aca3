//go:build darwin && cgo

package tray

/*
#cgo CFLAGS: -x objective-c -fobjc-arc
#cgo LDFLAGS: -framework Foundation -framework AppKit -framework CoreServices
#import <AppKit/AppKit.h>
#import <CoreServices/CoreServices.h>

// Defined in Go (url_export_darwin.go): a file with //export may
// only declare C in its preamble, so the Objective-C lives here.
extern void buildstationURLEvent(char *url);

// BSURLHandler receives kAEGetURL, the Apple Event macOS sends an app
// for a link of a scheme its Info.plist claims (CFBundleURLTypes). Neither
// Fyne nor GLFW handles it.
@interface BSURLHandler : NSObject
- (void)handleGetURL:(NSAppleEventDescriptor *)event withReplyEvent:(NSAppleEventDescriptor *)reply;
@end

@implementation BSURLHandler
- (void)handleGetURL:(NSAppleEventDescriptor *)event withReplyEvent:(NSAppleEventDescriptor *)reply {
	NSString *s = [[event paramDescriptorForKeyword:keyDirectObject] stringValue];
	if (s == nil) return;
	buildstationURLEvent((char *)[s UTF8String]);
	// LSUIElement: the app is not brought forward by itself.
	[NSApp activateIgnoringOtherApps:YES];
}
@end

static BSURLHandler *bsHandler;

// On the main thread, whichever goroutine asks: the tray process calls
// it from systray's ready callback, which runs on a goroutine of its own.
static void bsInstallURLHandler(void) {
	dispatch_async(dispatch_get_main_queue(), ^{
		if (bsHandler != nil) return;
		bsHandler = [[BSURLHandler alloc] init];
		[[NSAppleEventManager sharedAppleEventManager] setEventHandler:bsHandler
			andSelector:@selector(handleGetURL:withReplyEvent:)
			forEventClass:kInternetEventClass andEventID:kAEGetURL];
	});
}

// bsActivate brings the dashboard process forward: an LSUIElement app is
// not brought forward by itself when it shows a window.
static void bsActivate(void) {
	dispatch_async(dispatch_get_main_queue(), ^{
		[NSApp activateIgnoringOtherApps:YES];
	});
}
*/
import "C"

// installURLHandler registers for kAEGetURL. Called once the app has
// finished launching (AppKit sets its own Apple Event handlers while it
// launches); a link that launched the app arrives after that.
func installURLHandler() { C.bsInstallURLHandler() }

// activate brings this (the dashboard) process forward as it shows what
// the tray asked for.
func activate() { C.bsActivate() }

// allowForeground: macOS lets activateIgnoringOtherApps bring a window
// forward without a right handed on.
func allowForeground() {}
