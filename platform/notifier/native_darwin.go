//go:build darwin && cgo

package notifier

/*
#cgo CFLAGS: -x objective-c -fobjc-arc
#cgo LDFLAGS: -framework Foundation -framework UserNotifications
#import <Foundation/Foundation.h>
#import <UserNotifications/UserNotifications.h>
#include <stdlib.h>
#include <string.h>

// Defined in Go (native_export_darwin.go): a file with //export may only
// declare C in its preamble, so the Objective-C lives here.
extern void buildstationNotifyClicked(char *link);
extern void buildstationNotifyAuthorized(int granted, char *err);
extern void buildstationNotifyFailed(char *ident, char *err);

static NSString *const bsCategory = @"dev.buildstation.notice";
static NSString *const bsOpenAction = @"open";

static NSString *bsString(const char *s) {
	NSString *v = s ? [NSString stringWithUTF8String:s] : nil;
	return v ? v : @"";
}

@interface BSNotifyDelegate : NSObject <UNUserNotificationCenterDelegate>
@end

@implementation BSNotifyDelegate
// macOS shows nothing for the frontmost app unless its delegate asks.
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
       willPresentNotification:(UNNotification *)notification
         withCompletionHandler:(void (^)(UNNotificationPresentationOptions))completionHandler {
	completionHandler(UNNotificationPresentationOptionBanner | UNNotificationPresentationOptionList | UNNotificationPresentationOptionSound);
}

// A click on the notice or on its Open button opens the session its link names.
- (void)userNotificationCenter:(UNUserNotificationCenter *)center
didReceiveNotificationResponse:(UNNotificationResponse *)response
         withCompletionHandler:(void (^)(void))completionHandler {
	NSString *action = response.actionIdentifier;
	if ([action isEqualToString:UNNotificationDefaultActionIdentifier] || [action isEqualToString:bsOpenAction]) {
		id link = response.notification.request.content.userInfo[@"url"];
		if ([link isKindOfClass:[NSString class]]) {
			buildstationNotifyClicked((char *)[(NSString *)link UTF8String]);
		}
	}
	completionHandler();
}
@end

// The center keeps its delegate weakly.
static BSNotifyDelegate *bsDelegate;

// bsBundleID is the main bundle's identifier (malloc'd), or NULL outside an
// app bundle, where UNUserNotificationCenter must not be touched.
static char *bsBundleID(void) {
	@autoreleasepool {
		NSString *s = [[NSBundle mainBundle] bundleIdentifier];
		if (s == nil || [s length] == 0) return NULL;
		return strdup([s UTF8String]);
	}
}

static void bsNotifyStart(void) {
	@autoreleasepool {
		UNUserNotificationCenter *center = [UNUserNotificationCenter currentNotificationCenter];
		bsDelegate = [[BSNotifyDelegate alloc] init];
		center.delegate = bsDelegate;
		UNNotificationAction *openAction = [UNNotificationAction actionWithIdentifier:bsOpenAction
			title:@"Open" options:UNNotificationActionOptionForeground];
		UNNotificationCategory *category = [UNNotificationCategory categoryWithIdentifier:bsCategory
			actions:@[openAction] intentIdentifiers:@[] options:UNNotificationCategoryOptionNone];
		[center setNotificationCategories:[NSSet setWithObject:category]];
		[center requestAuthorizationWithOptions:(UNAuthorizationOptionAlert | UNAuthorizationOptionSound)
			completionHandler:^(BOOL granted, NSError *error) {
				buildstationNotifyAuthorized(granted ? 1 : 0,
					error != nil ? (char *)[[error localizedDescription] UTF8String] : NULL);
			}];
	}
}

// bsNotifyPost shows one notice; a notice with the same identifier replaces it.
static void bsNotifyPost(const char *ident, const char *title, const char *body, const char *url) {
	@autoreleasepool {
		UNMutableNotificationContent *content = [[UNMutableNotificationContent alloc] init];
		content.title = bsString(title);
		content.body = bsString(body);
		content.sound = [UNNotificationSound defaultSound];
		NSString *link = bsString(url);
		if ([link length] > 0) {
			content.userInfo = @{@"url": link};
			content.categoryIdentifier = bsCategory;
		}
		NSString *identifier = bsString(ident);
		UNNotificationRequest *request = [UNNotificationRequest requestWithIdentifier:identifier content:content trigger:nil];
		[[UNUserNotificationCenter currentNotificationCenter] addNotificationRequest:request
			withCompletionHandler:^(NSError *error) {
				if (error != nil) {
					buildstationNotifyFailed((char *)[identifier UTF8String], (char *)[[error localizedDescription] UTF8String]);
				}
			}];
	}
}

static void bsNotifyWithdraw(const char *ident) {
	@autoreleasepool {
		NSArray<NSString *> *ids = @[bsString(ident)];
		UNUserNotificationCenter *center = [UNUserNotificationCenter currentNotificationCenter];
		[center removeDeliveredNotificationsWithIdentifiers:ids];
		[center removePendingNotificationRequestsWithIdentifiers:ids];
	}
}
*/
import "C"

import "unsafe"

// nativeBuilt: this build can show native notifications.
const nativeBuilt = true

// native is the process's one delegate's link to Go.
var native nativeState

// bundleID is the main bundle's identifier, "" when the process does not
// run from an app bundle.
func bundleID() string {
	s := C.bsBundleID()
	if s == nil {
		return ""
	}
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}

// nativeStart sets up the notification center once per process: the
// delegate, the category with its Open action, and the authorization
// request (alert and sound); later calls only change where clicks go.
func nativeStart(o Options) {
	if native.start(o) {
		C.bsNotifyStart()
	}
}

// nativePost shows m (texts already made safe by newMessage) under its
// group, the identifier Withdraw removes.
func nativePost(m message) {
	ident, title, body, link := C.CString(m.Group), C.CString(m.Title), C.CString(m.Body), C.CString(m.URL)
	defer C.free(unsafe.Pointer(ident))
	defer C.free(unsafe.Pointer(title))
	defer C.free(unsafe.Pointer(body))
	defer C.free(unsafe.Pointer(link))
	C.bsNotifyPost(ident, title, body, link)
}

// nativeWithdraw removes the notice shown under group, shown or pending.
func nativeWithdraw(group string) {
	ident := C.CString(group)
	defer C.free(unsafe.Pointer(ident))
	C.bsNotifyWithdraw(ident)
}
